import { isTrackedEnvelope } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import { FirstMessage } from '../trpc/output.js';
import { textFrame } from './frames.js';
import {
  BACKLOG_MAX,
  createLiveChannel,
  LIVE_BUFFER_MAX,
  type LiveConnection,
  type LiveSource,
  type LiveStream,
  type ResumableStream,
} from './live-channel.js';

/**
 * The channel with a test-only stream, a conversation's messages: resumable
 * from the last `seq`, each viewer sees only its conversations, typing is
 * shared by everyone who sees it. No database and no transport: the source is
 * a list of listeners, the socket records what is written to it.
 */
type Note = { seq: number; conversationId: number; kind: 'message' | 'typing'; userId: number };
type Event = { kind: 'ready' } | { kind: 'resync' } | { kind: 'message'; seq: number } | { kind: 'typing'; userId: number };

function testSource() {
  const listeners = new Set<(n: Note) => void>();
  const missed = new Set<() => void>();
  const log: Note[] = [];
  const source: LiveSource<Note> = {
    subscribe(listener, onMissed) {
      listeners.add(listener);
      if (onMissed) missed.add(onMissed);
      return () => {
        listeners.delete(listener);
        if (onMissed) missed.delete(onMissed);
      };
    },
  };
  return {
    source,
    log,
    listeners,
    /** Stored, but the notification is lost (the LISTEN connection is down); `reconnected` then tells the channel. */
    publish(n: Omit<Note, 'seq'>, opts: { lost?: boolean } = {}) {
      const note = { ...n, seq: log.length + 1 };
      log.push(note);
      if (!opts.lost) for (const l of listeners) l(note);
      return note;
    },
    reconnected() {
      for (const m of missed) m();
    },
  };
}

function messageStream(
  log: Note[],
  opts: { catchUpGate?: Promise<void>; slowView?: () => Promise<void> } = {},
): ResumableStream<number, Note, Event> {
  return {
    name: 'messages',
    ready: { kind: 'ready' },
    resume: {
      position: (n) => n.seq,
      latest: async () => log.length,
      async catchUp(conversationId, cursor) {
        await opts.catchUpGate;
        const after = Number(cursor);
        if (!Number.isSafeInteger(after) || after > log.length) return { events: [], position: log.length, resync: true };
        const events = log
          .filter((n) => n.seq > after && n.conversationId === conversationId && n.kind === 'message')
          .map((n) => ({ id: n.seq, event: { kind: 'message' as const, seq: n.seq } }));
        return { events, position: log.length, resync: false };
      },
      resync: { kind: 'resync' },
    },
    view(conversationId, n, views) {
      if (n.conversationId !== conversationId) return null;
      if (n.kind === 'typing') return views.shared(`typing:${n.userId}`, () => ({ kind: 'typing', userId: n.userId }));
      if (opts.slowView) return opts.slowView().then(() => ({ kind: 'message', seq: n.seq }));
      return { kind: 'message', seq: n.seq };
    },
  };
}

/** A socket that records the frames written to its stream (decoded) and what `ws.send` was given. */
function fakeConnection(opts: { extensions?: string } = {}) {
  const written: Buffer[] = [];
  const sent: string[] = [];
  const ws = {
    readyState: 1,
    extensions: opts.extensions ?? '',
    bufferedAmount: 0,
    send: vi.fn((text: Buffer) => sent.push(text.toString())),
    terminate: vi.fn(),
  };
  const connection: LiveConnection = { ws: ws as unknown as LiveConnection['ws'], stream: { write: (b: Buffer) => written.push(b) > 0 } };
  const headerLength = (frame: Buffer) => (frame[1]! < 126 ? 2 : frame[1] === 126 ? 4 : 10);
  const messages = () => written.map((frame) => JSON.parse(frame.subarray(headerLength(frame)).toString()));
  return { connection, ws, written, sent, messages };
}

/**
 * Opens a subscription as tRPC's WebSocket adapter runs it: takes the first
 * message (telling its onSent the subscription id, as the encoder does) and
 * keeps the generator going.
 */
async function openOverSocket<E>(generator: AsyncGenerator<unknown, void, unknown>, subscriptionId = 1) {
  const first = await generator.next();
  const value = first.value;
  const envelope = isTrackedEnvelope(value) ? value : null;
  const message = (envelope ? envelope[1] : value) as FirstMessage<E>;
  expect(message).toBeInstanceOf(FirstMessage);
  message.onSent(subscriptionId, '2.0');
  const rest = generator.next();
  return { first: { id: envelope?.[0] ?? null, event: message.event }, done: rest };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the live channel, with a test-only stream', () => {
  it('replays what a viewer missed, says ready, then writes live events straight to the socket, each once', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    t.publish({ conversationId: 1, kind: 'message', userId: 5 });
    t.publish({ conversationId: 2, kind: 'message', userId: 5 });
    t.publish({ conversationId: 1, kind: 'message', userId: 6 });
    let letCatchUpFinish!: () => void;
    const gate = new Promise<void>((r) => {
      letCatchUpFinish = r;
    });
    const socket = fakeConnection();
    const leave = new AbortController();
    const generator = channel.open(messageStream(t.log, { catchUpGate: gate }), {
      viewer: 1,
      cursor: '1',
      signal: leave.signal,
      connection: socket.connection,
    });
    const opening = openOverSocket<Event>(generator);
    await tick();
    // Published while the catch-up loads: in the log (the catch-up reads it) and notified (the channel queued it): sent once.
    t.publish({ conversationId: 1, kind: 'message', userId: 7 });
    letCatchUpFinish();
    const { first, done } = await opening;
    expect(first).toEqual({ id: '3', event: { kind: 'message', seq: 3 } });
    t.publish({ conversationId: 2, kind: 'message', userId: 5 });
    t.publish({ conversationId: 1, kind: 'typing', userId: 5 });
    expect(socket.messages()).toEqual([
      { id: 1, jsonrpc: '2.0', result: { type: 'data', id: '4', data: { json: { id: '4', data: { kind: 'message', seq: 4 } } } } },
      { id: 1, jsonrpc: '2.0', result: { type: 'data', id: '4', data: { json: { id: '4', data: { kind: 'ready' } } } } },
      { id: 1, jsonrpc: '2.0', result: { type: 'data', id: '6', data: { json: { id: '6', data: { kind: 'typing', userId: 5 } } } } },
    ]);
    expect(socket.ws.send).not.toHaveBeenCalled();
    leave.abort();
    expect(await done).toEqual({ done: true, value: undefined });
    expect(channel.size).toBe(0);
    expect(t.listeners.size).toBe(0);
  });

  it('after the source lost notifications, catches a resumable subscriber up from its position and sends ready again to any other', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    const socket = fakeConnection();
    const leave = new AbortController();
    const resumable = await openOverSocket(
      channel.open(messageStream(t.log), { viewer: 1, signal: leave.signal, connection: socket.connection }),
    );
    const { ready: _, resume: __, ...plain } = messageStream(t.log);
    const inbox = channel.open({ ...plain, name: 'inbox', ready: { kind: 'ready' } } as LiveStream<number, Note, Event>, {
      viewer: 1,
      signal: leave.signal,
    });
    expect((await inbox.next()).value).toEqual({ kind: 'ready' });
    t.publish({ conversationId: 1, kind: 'message', userId: 5 });
    t.publish({ conversationId: 1, kind: 'message', userId: 5 }, { lost: true });
    t.publish({ conversationId: 2, kind: 'message', userId: 5 }, { lost: true });
    t.publish({ conversationId: 1, kind: 'message', userId: 5 }, { lost: true });
    t.reconnected();
    // Published once the connection is back, while the catch-up loads: after it, once.
    t.publish({ conversationId: 1, kind: 'message', userId: 5 });
    await vi.waitFor(() => expect(socket.messages().length).toBe(4));
    expect(socket.messages().map((m) => [m.result.id, m.result.data.json.data])).toEqual([
      ['1', { kind: 'message', seq: 1 }],
      ['2', { kind: 'message', seq: 2 }],
      ['4', { kind: 'message', seq: 4 }],
      ['5', { kind: 'message', seq: 5 }],
    ]);
    // The stream that does not resume cannot be told what it missed: it is sent ready again (its client reloads).
    const rest: unknown[] = [];
    for (let i = 0; i < 3; i++) rest.push((await inbox.next()).value);
    expect(rest).toEqual([{ kind: 'message', seq: 1 }, { kind: 'ready' }, { kind: 'message', seq: 5 }]);
    leave.abort();
    await resumable.done;
    expect(await inbox.next()).toEqual({ done: true, value: undefined });
  });

  it('frames a shared view once: every socket of the same subscription id is written the same bytes', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    const sockets = [fakeConnection(), fakeConnection(), fakeConnection()];
    const leave = new AbortController();
    const opened = await Promise.all(
      sockets.map((s) => openOverSocket(channel.open(messageStream(t.log), { viewer: 1, signal: leave.signal, connection: s.connection }))),
    );
    t.publish({ conversationId: 1, kind: 'typing', userId: 9 });
    const frames = sockets.map((s) => s.written.at(-1)!);
    expect(frames[1]).toBe(frames[0]);
    expect(frames[2]).toBe(frames[0]);
    expect(frames[0]!.equals(textFrame(Buffer.from(JSON.stringify(sockets[0]!.messages().at(-1)))))).toBe(true);
    leave.abort();
    await Promise.all(opened.map((o) => o.done));
  });

  it('sends through ws when the socket compresses (its frames may wait their turn), and drops a socket far behind', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    const deflating = fakeConnection({ extensions: 'permessage-deflate' });
    const slow = fakeConnection();
    const leave = new AbortController();
    const opened = [deflating, slow].map((s) =>
      openOverSocket(channel.open(messageStream(t.log), { viewer: 1, signal: leave.signal, connection: s.connection })),
    );
    await Promise.all(opened);
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    expect(deflating.sent.map((s) => JSON.parse(s).result.data.json.data)).toEqual([{ kind: 'message', seq: 1 }]);
    expect(deflating.written).toEqual([]);
    slow.ws.bufferedAmount = LIVE_BUFFER_MAX + 1;
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    expect(slow.ws.terminate).toHaveBeenCalledTimes(1);
    await expect((await opened[1]!).done).resolves.toEqual({ done: true, value: undefined });
    leave.abort();
    await (await opened[0]!).done;
  });

  it('keeps each subscriber’s events in order while a view waits, and resyncs a backlog past BACKLOG_MAX', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const socket = fakeConnection();
    const leave = new AbortController();
    const { done } = await openOverSocket(
      channel.open(messageStream(t.log, { slowView: () => held }), { viewer: 1, signal: leave.signal, connection: socket.connection }),
    );
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    t.publish({ conversationId: 1, kind: 'typing', userId: 1 });
    expect(socket.written).toEqual([]);
    release();
    await vi.waitFor(() => expect(socket.messages().map((m) => m.result.data.json.data.kind)).toEqual(['message', 'typing']));

    let releaseMore!: () => void;
    const heldMore = new Promise<void>((r) => {
      releaseMore = r;
    });
    const other = fakeConnection();
    const o = await openOverSocket(
      channel.open(messageStream(t.log, { slowView: () => heldMore }), { viewer: 1, signal: leave.signal, connection: other.connection }),
    );
    for (let i = 0; i <= BACKLOG_MAX + 1; i++) t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    releaseMore();
    await vi.waitFor(() => expect(other.messages().length).toBeGreaterThanOrEqual(3));
    const kinds = other.messages().map((m) => m.result.data.json.data.kind);
    expect(kinds.slice(0, 3)).toEqual(['message', 'resync', 'message']);
    expect(other.messages().map((m) => Number(m.result.id))).toEqual([t.log.length - BACKLOG_MAX - 1, t.log.length - 1, t.log.length]);
    leave.abort();
    await Promise.all([done, o.done]);
  });

  it('ends the subscription with UNAUTHORIZED once the session has ended', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    let live = true;
    const socket = fakeConnection();
    const { done } = await openOverSocket(
      channel.open(messageStream(t.log), { viewer: 1, stillAllowed: () => live, connection: socket.connection }),
    );
    live = false;
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    await expect(done).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(socket.written).toEqual([]);
    expect(channel.size).toBe(0);
  });

  it('without a socket, the same events go through the subscription’s own iterator (untracked for a stream that does not resume)', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    const plain: LiveStream<number, Note, Event> = {
      name: 'plain',
      ready: { kind: 'ready' },
      view: (c, n) => (n.conversationId === c ? { kind: 'message', seq: n.seq } : null),
    };
    const leave = new AbortController();
    const generator = channel.open(plain, { viewer: 1, signal: leave.signal });
    expect((await generator.next()).value).toEqual({ kind: 'ready' });
    const next = generator.next();
    t.publish({ conversationId: 2, kind: 'message', userId: 1 });
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    expect((await next).value).toEqual({ kind: 'message', seq: 2 });
    const last = generator.next();
    leave.abort();
    expect(await last).toEqual({ done: true, value: undefined });
  });

  it('with a topic, tells a notification only to the subscribers of its group (the view is never asked about the others)', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source);
    const viewed: number[] = [];
    const base = messageStream(t.log);
    const topical: ResumableStream<number, Note, Event> = {
      ...base,
      topic: { of: (conversationId) => String(conversationId), note: (n) => String(n.conversationId) },
      view(conversationId, n, views) {
        viewed.push(conversationId);
        return base.view(conversationId, n, views);
      },
    };
    const leave = new AbortController();
    const sockets = [1, 2, 2, 3].map((conversationId) => ({ conversationId, socket: fakeConnection() }));
    const opened = await Promise.all(
      sockets.map(({ conversationId, socket }) =>
        openOverSocket(channel.open(topical, { viewer: conversationId, signal: leave.signal, connection: socket.connection })),
      ),
    );
    t.publish({ conversationId: 2, kind: 'message', userId: 1 });
    expect(viewed).toEqual([2, 2]);
    expect(sockets.map(({ socket }) => socket.messages().length)).toEqual([0, 1, 1, 0]);
    // A subscriber that left is no longer in its group; the group goes with its last subscriber.
    leave.abort();
    await Promise.all(opened.map((o) => o.done));
    expect(channel.size).toBe(0);
    t.publish({ conversationId: 2, kind: 'message', userId: 1 });
    expect(viewed).toEqual([2, 2]);
  });

  it('tells a notification to DELIVER_BATCH subscribers at a time, in order', async () => {
    const t = testSource();
    const channel = createLiveChannel(t.source, { batch: 2 });
    const sockets = Array.from({ length: 5 }, () => fakeConnection());
    const leave = new AbortController();
    const opened = await Promise.all(
      sockets.map((s) => openOverSocket(channel.open(messageStream(t.log), { viewer: 1, signal: leave.signal, connection: s.connection }))),
    );
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    t.publish({ conversationId: 1, kind: 'message', userId: 1 });
    // The second notification waits behind the first's later batches: every socket hears them in order.
    expect(sockets.map((s) => s.written.length)).toEqual([1, 1, 0, 0, 0]);
    await vi.waitFor(() => expect(sockets.map((s) => s.messages().map((m) => m.result.id))).toEqual(Array(5).fill(['1', '2'])));
    leave.abort();
    await Promise.all(opened.map((o) => o.done));
  });
});
