import type { Duplex } from 'node:stream';
import { type TrackedEnvelope, tracked } from '@trpc/server';
import type { WebSocket } from 'ws';
import { AppError } from '../errors.js';
import { FirstMessage, serializeOutput } from '../trpc/output.js';
import { messageHead, messageTail, textFrame } from './frames.js';

/**
 * One live channel for every stream: the way a change on any instance
 * reaches the sockets of the people who may see it, written once.
 *
 * A domain describes its stream (LiveStream: where its notifications come
 * from, what a viewer sees of each, and, for a resumable stream, how to load
 * what a viewer missed) and opens it from its subscription procedure. The
 * channel does the rest, the same way for every stream:
 * - it listens first, then loads the catch-up, then hands over to live
 *   notifications, so nothing falls in between (a notification the catch-up
 *   already covered is skipped by its position);
 * - it sends the first message through tRPC, which tells it the
 *   subscription's id (trpc/output.ts FirstMessage), and writes everything
 *   after to the socket itself: one path for every event, in order;
 * - a view shared by many viewers (`views.shared`) is serialized and framed
 *   once and the same bytes are written to every socket (frames.ts);
 * - each socket has one writer: a socket more than LIVE_BUFFER_MAX behind is
 *   dropped (its client reconnects and catches up), a subscriber whose views
 *   wait on the database keeps at most BACKLOG_MAX notifications, then gets
 *   one resync instead (or, not resumable, the latest ones);
 * - the session is checked before each live event; when it has ended the
 *   subscription ends with UNAUTHORIZED;
 * - a notification is told to DELIVER_BATCH subscribers at a time, so the
 *   first sockets are written at once and other work may run between batches;
 * - when the source may have lost notifications (its LISTEN connection
 *   dropped with a database restart), a resumable subscriber catches up from
 *   its position as a reconnecting one does, and any other is sent `ready`
 *   again, on which its client reloads.
 * A domain never imports `ws` or builds a frame (tests/contracts/layering.test.ts).
 *
 * Adding a stream (a conversation's messages, resumable from the last `seq`):
 *
 * ```ts
 * // server/messages/events.ts: the rules, no transport in sight
 * export function messageStream(deps: MessageDeps): LiveStream<Viewer, MessageNote, MessageEvent> {
 *   return {
 *     name: 'messages',
 *     ready: { kind: 'ready' },
 *     // Each notification concerns one conversation: only its subscribers are told of it.
 *     topic: { of: (viewer) => String(viewer.conversationId), note: (n) => String(n.conversationId) },
 *     resume: {
 *       // Only this conversation's messages move the position; its receipts and typing are never skipped.
 *       position: (n, viewer) => (n.conversationId === viewer.conversationId && n.kind === 'message' ? n.seq : null),
 *       latest: (viewer) => repo.latestSeq(deps.db, viewer.conversationId),
 *       catchUp: (viewer, cursor) => catchUpAfter(deps.db, viewer, cursor), // { events: [{ id, event }], position, resync }
 *       resync: { kind: 'resync' },
 *     },
 *     // What this viewer sees of a notification (ids only): null for nothing.
 *     view: (viewer, n, views) =>
 *       n.conversationId !== viewer.conversationId
 *         ? null
 *         : n.kind === 'typing'
 *           ? views.shared(`typing:${n.userId}`, () => ({ kind: 'typing', userId: n.userId }))
 *           : loadMessage(deps.db, n.messageId).then((m) => ({ kind: n.kind, message: m })),
 *   };
 * }
 * // server/server.ts: one channel per LISTEN/NOTIFY source (realtime/notify-source.ts)
 * messagesLive: createLiveChannel(messagesSource),
 * // server/messages/router.ts
 * events: clientProcedure.input(eventsInput).subscription(({ ctx, input, signal }) =>
 *   ctx.deps.messagesLive.open(messageStream(ctx.deps), { viewer, cursor: input.lastEventId, ...liveSubscriber(ctx, signal) })),
 * ```
 * Tested once for every stream: server/realtime/live-channel.test.ts (a test-only conversation stream)
 * and tests/contracts/ws-frames.test.ts (over tRPC's real WebSocket adapter).
 */

/** Where a stream's notifications come from: every instance's, in commit order (LISTEN/NOTIFY, ids only in payloads). */
export interface LiveSource<N> {
  /**
   * `missed` runs when notifications may have been lost (the LISTEN connection dropped and came back): every
   * subscriber then catches up from where it is (a resumable stream), or is sent `ready` again and reloads.
   */
  subscribe(listener: (note: N) => void, missed?: () => void): () => void;
}

/** How a resumable stream finds its place: positions (tracked ids, increasing) and the events after one. */
export interface LiveResume<V, N, E> {
  /**
   * A notification's position for this viewer; the client resends the last one it got as `lastEventId` when it
   * reconnects. null: not in this viewer's sequence (an ephemeral event, another conversation's): never skipped as
   * covered, and the position stays where it is.
   */
  position(note: N, viewer: V): number | null;
  /** Where the stream stands now: a fresh subscriber starts here (it loads the current state itself on 'ready'). */
  latest(viewer: V): Promise<number>;
  /** What this viewer missed after `cursor`, as it sees it now; `resync` when that cannot be told (too old, too many). */
  catchUp(viewer: V, cursor: string): Promise<LiveCatchUp<E>>;
  /** What a subscriber that missed events it cannot be told is sent: it reloads. */
  readonly resync: E;
}

export type LiveCatchUp<E> = { events: { id: number; event: E }[]; position: number; resync: boolean };

/**
 * A view of one notification that many subscribers share: made once, its
 * JSON and frames made once and written to every socket that is sent it.
 * Made only by LiveViews.shared.
 */
export class SharedEvent<E> {
  private lastHead: string | undefined;
  private lastId: string | null = null;
  private last: Bytes | undefined;
  private others: Map<string, Bytes> | undefined;
  constructor(readonly event: E) {}

  /** The message's text and frame for a subscription (its head) and tracked id: made once per pair. */
  bytes(head: string, trackedId: string | null): Bytes {
    if (this.last && head === this.lastHead && trackedId === this.lastId) return this.last;
    const key = `${trackedId}\u0000${head}`;
    let bytes = this.others?.get(key);
    if (!bytes) {
      bytes = messageBytes(head, trackedId, this.event);
      this.others ??= new Map();
      this.others.set(key, bytes);
    }
    this.lastHead = head;
    this.lastId = trackedId;
    this.last = bytes;
    return bytes;
  }
}

/** Views of one notification, shared by the subscribers of one stream who see it the same way. */
export interface LiveViews<E> {
  /** The view under `key` for this notification, made by `make` the first time (never mutate it). */
  shared(key: string, make: () => E): SharedEvent<E>;
  /** Anything else made once for this notification and shared by its subscribers (a row every view needs). */
  memo<T>(key: string, make: () => T): T;
}

/** What a viewer sees of a notification: an event, a shared one, or nothing. */
export type LiveShown<E> = E | SharedEvent<E> | null;

/**
 * For a stream whose notifications each concern one group of viewers (a conversation's two sides): the channel
 * tells a notification only to the subscribers of its group, never scanning every subscriber of the source. Every
 * stream of one name must give the same `note` rule (the channel keeps one per name).
 */
export interface LiveTopic<V, N> {
  /** The group this viewer is in. */
  of(viewer: V): string;
  /** The group this notification concerns; null: every subscriber of the stream. */
  note(note: N): string | null;
}

/** A domain's rules for one stream. */
export interface LiveStream<V, N, E> {
  /** Names the stream (log lines; the shared views of different streams on one source are kept apart by it). */
  readonly name: string;
  /** Sent once the subscriber is caught up: from here on, it gets live events (a client loads its state on it). */
  readonly ready: E;
  /** Present for a resumable stream: its events are tracked (ids), and a reconnect replays what was missed. */
  readonly resume?: LiveResume<V, N, E>;
  /** What this viewer sees of a notification; a promise only when it must wait (the database). */
  view(viewer: V, note: N, views: LiveViews<E>): LiveShown<E> | Promise<LiveShown<E>>;
  /** Present when each notification concerns one group of viewers: it reaches only them (see LiveTopic). */
  readonly topic?: LiveTopic<V, N>;
  /** Called when a view fails: the default ends the subscription with the error; a resumable stream may log and resync. */
  onViewError?(err: Error, note: N): LiveShown<E>;
}

/** The socket a subscription came over, as the channel writes to it (realtime/socket-sessions.ts makes it). */
export type LiveConnection = {
  readonly ws: Pick<WebSocket, 'send' | 'extensions' | 'bufferedAmount' | 'readyState' | 'terminate'>;
  /** The socket's TCP stream: a frame made once is written straight to it. */
  readonly stream?: Pick<Duplex, 'write'>;
};

/** One subscriber: who it is, where it resumes, and the transport's part (trpc/context.ts liveSubscriber). */
export type LiveSubscriber<V> = {
  viewer: V;
  /** The position a resumable stream's client last got (tRPC's lastEventId); none for a fresh subscriber. */
  cursor?: string | null;
  signal?: AbortSignal;
  /** Checked before each live event (a socket outlives any one check): false ends the subscription. */
  stillAllowed?: () => boolean | Promise<boolean>;
  /** The WebSocket, when it came over one; without it events go through tRPC's own loop. */
  connection?: LiveConnection;
};

/** A stream whose events are tracked and replayed after a reconnect. */
export type ResumableStream<V, N, E> = LiveStream<V, N, E> & { readonly resume: LiveResume<V, N, E> };

export interface LiveChannel<N> {
  /** A subscription's events, for a subscription procedure to return (or `yield*`): tracked when the stream resumes. */
  open<V, E>(stream: ResumableStream<V, N, E>, subscriber: LiveSubscriber<V>): AsyncGenerator<TrackedEnvelope<E>, void, unknown>;
  open<V, E>(stream: LiveStream<V, N, E>, subscriber: LiveSubscriber<V>): AsyncGenerator<E, void, unknown>;
  /** Subscribers open now (tests). */
  readonly size: number;
}

/** Subscribers told of a notification in one go before other work may run. */
export const DELIVER_BATCH = 100;
/** Notifications waiting for one subscriber (its views wait on the database) before they become one resync. */
export const BACKLOG_MAX = 1000;
/** A socket with this much not yet sent is far behind: it is dropped, and its client reconnects and catches up. */
export const LIVE_BUFFER_MAX = 4 * 1024 * 1024;

type Bytes = { text: Buffer; frame: Buffer };

function messageBytes(head: string, trackedId: string | null, event: unknown): Bytes {
  const data = trackedId === null ? event : { id: trackedId, data: event };
  const text = Buffer.from(head + messageTail(trackedId, JSON.stringify(serializeOutput(data))));
  return { text, frame: textFrame(text) };
}

const sessionEnded = () => new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');

/** A backlog that grew past BACKLOG_MAX: a resumable stream resyncs from here. */
const TOO_FAR_BEHIND = Symbol('too far behind');
/** The source may have lost notifications here: catch up (resumable) or send `ready` again. */
const MISSED = Symbol('missed');
type Queued<N> = { note: N | typeof TOO_FAR_BEHIND | typeof MISSED; views: NoteViews; position: number | null };

/** The shared views of one notification, per stream. */
class NoteViews {
  private byStream: Map<string, LiveViews<unknown>> | undefined;
  of<E>(stream: string): LiveViews<E> {
    this.byStream ??= new Map();
    let views = this.byStream.get(stream) as LiveViews<E> | undefined;
    if (!views) {
      const shared = new Map<string, SharedEvent<E>>();
      const memos = new Map<string, unknown>();
      views = {
        shared(key, make) {
          let view = shared.get(key);
          if (!view) {
            view = new SharedEvent(make());
            shared.set(key, view);
          }
          return view;
        },
        memo<T>(key: string, make: () => T): T {
          if (memos.has(key)) return memos.get(key) as T;
          const value = make();
          memos.set(key, value);
          return value;
        },
      };
      this.byStream.set(stream, views as LiveViews<unknown>);
    }
    return views;
  }
}

type Write<E> = (trackedId: string | null, shown: E | SharedEvent<E>) => void;

/** Writes straight to the socket: shared views' bytes as they are, framed once. */
function socketWriter<E>(connection: LiveConnection, head: string, close: () => void): Write<E> {
  const { ws } = connection;
  const stream = ws.extensions === '' ? connection.stream : undefined;
  return (trackedId, shown) => {
    if (ws.readyState !== 1) return; // not OPEN: closing, and its subscription ends with it
    if (ws.bufferedAmount > LIVE_BUFFER_MAX) {
      ws.terminate();
      close();
      return;
    }
    const bytes = shown instanceof SharedEvent ? shown.bytes(head, trackedId) : messageBytes(head, trackedId, shown);
    // No extension (permessage-deflate compresses, and may hold frames back): ws writes each frame at once, so order holds.
    if (stream) stream.write(bytes.frame);
    else ws.send(bytes.text, { binary: false });
  };
}

class Subscription<V, N, E> {
  private queue: Queued<N>[] = [];
  /** Notifications are held while the catch-up loads (they are queued), then handled in order. */
  private holding = true;
  private busy = false;
  finished = false;
  private error: Error | undefined;
  private settle: (() => void) | undefined;
  /** The highest position handled (or covered by the catch-up): anything at or below it is skipped. */
  covered = 0;
  write: Write<E> = () => {};
  private readonly viewer: V;
  private readonly stillAllowed: () => boolean | Promise<boolean>;

  constructor(
    readonly stream: LiveStream<V, N, E>,
    subscriber: LiveSubscriber<V>,
  ) {
    this.viewer = subscriber.viewer;
    this.stillAllowed = subscriber.stillAllowed ?? (() => true);
  }

  push(note: N | typeof MISSED, views: NoteViews) {
    if (this.finished) return;
    const position = note === MISSED ? null : this.stream.resume ? this.stream.resume.position(note, this.viewer) : 0;
    if (!this.busy && !this.holding && this.queue.length === 0) {
      this.handle(note, views, position);
      return;
    }
    if (this.queue.length >= BACKLOG_MAX) {
      // One resync covers everything dropped (up to the last waiting position); this notification follows it.
      if (this.stream.resume) this.queue = [{ note: TOO_FAR_BEHIND, views, position: this.lastQueuedPosition() }];
      else this.queue.shift();
    }
    this.queue.push({ note, views, position });
  }

  /** The highest position waiting (the resync that replaces the queue covers it). */
  private lastQueuedPosition(): number {
    let p = this.covered;
    for (const q of this.queue) if (q.position !== null && q.position > p) p = q.position;
    return p;
  }

  /** Starts live delivery: what was queued first, in order. */
  release() {
    this.holding = false;
    this.drain();
  }

  finish(err?: Error) {
    if (this.finished) return;
    this.finished = true;
    this.error = err;
    this.queue = [];
    this.settle?.();
  }

  /** Resolves when the subscription ends; rejects with its error (an ended session). */
  async ended(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) this.finish();
    signal?.addEventListener('abort', () => this.finish(), { once: true });
    if (!this.finished)
      await new Promise<void>((resolve) => {
        this.settle = resolve;
      });
    if (this.error) throw this.error;
  }

  /** Waits for the next change (a write, the end). */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.settle = resolve;
    });
  }

  wake() {
    const s = this.settle;
    this.settle = undefined;
    s?.();
  }

  private drain() {
    while (this.queue.length && !this.busy && !this.finished) {
      const { note, views, position } = this.queue.shift()!;
      this.handle(note, views, position);
    }
  }

  /** One notification: skipped when covered, else checked, viewed and written; waits (busy) only when it must. */
  private handle(note: N | typeof TOO_FAR_BEHIND | typeof MISSED, views: NoteViews, position: number | null) {
    const resume = this.stream.resume;
    if (resume && position !== null && position <= this.covered) return;
    if (note === TOO_FAR_BEHIND) {
      this.shown(position, resume!.resync);
      return;
    }
    if (note === MISSED) {
      if (resume) this.catchUp(resume);
      else this.shown(null, this.stream.ready);
      return;
    }
    let allowed: boolean | Promise<boolean>;
    try {
      allowed = this.stillAllowed();
    } catch (err) {
      return this.finish(err as Error);
    }
    if (allowed === false) return this.finish(sessionEnded());
    if (allowed !== true) {
      this.wait(
        allowed.then((ok) => (ok ? this.view(note, views) : Promise.reject(sessionEnded()))),
        position,
      );
      return;
    }
    let shown: LiveShown<E> | Promise<LiveShown<E>>;
    try {
      shown = this.view(note, views);
    } catch (err) {
      return this.finish(err as Error);
    }
    if (shown instanceof Promise) this.wait(shown, position);
    else this.shown(position, shown);
  }

  private view(note: N, views: NoteViews): LiveShown<E> | Promise<LiveShown<E>> {
    const shown = this.stream.view(this.viewer, note, views.of<E>(this.stream.name));
    const { onViewError } = this.stream;
    if (!onViewError) return shown;
    if (shown instanceof Promise) return shown.catch((err: Error) => onViewError(err, note));
    return shown;
  }

  private wait(shown: Promise<LiveShown<E>>, position: number | null) {
    this.busy = true;
    shown.then(
      (ready) => {
        this.busy = false;
        if (this.finished) return;
        this.shown(position, ready);
        this.drain();
      },
      (err: Error) => this.finish(err),
    );
  }

  /** What this subscriber missed after its position, as a reconnecting one is told it; a resync when that fails. */
  private catchUp(resume: LiveResume<V, N, E>) {
    this.busy = true;
    resume.catchUp(this.viewer, String(this.covered)).then(
      (caughtUp) => {
        this.busy = false;
        if (this.finished) return;
        for (const e of caughtUp.events) this.shown(e.id, e.event);
        this.shown(caughtUp.position, caughtUp.resync ? resume.resync : null);
        this.drain();
      },
      () => {
        this.busy = false;
        if (this.finished) return;
        this.shown(null, resume.resync);
        this.drain();
      },
    );
  }

  private shown(position: number | null, shown: LiveShown<E>) {
    let trackedId: string | null = null;
    if (this.stream.resume) {
      if (position !== null) this.covered = Math.max(this.covered, position);
      trackedId = String(this.covered);
    }
    if (shown !== null) this.write(trackedId, shown);
  }
}

/**
 * The channel of one source: it listens to the source while anyone
 * subscribes, and tells each notification to the subscribers it may concern
 * (every subscriber of a stream without a topic, the notification's group of
 * one with a topic), DELIVER_BATCH at a time, in order.
 */
export function createLiveChannel<N>(source: LiveSource<N>, opts: { batch?: number } = {}): LiveChannel<N> {
  const batchSize = opts.batch ?? DELIVER_BATCH;
  type Sub = Subscription<unknown, N, unknown>;
  const subscriptions = new Set<Sub>();
  /** Subscribers of streams without a topic: told every notification. */
  const everyone = new Set<Sub>();
  /** Per stream name with a topic: its rule for notifications, and its subscribers by group. */
  const topics = new Map<string, { note: (note: N) => string | null; all: Set<Sub>; groups: Map<string, Set<Sub>> }>();
  const groupOf = new Map<Sub, string>();
  const recipients = (note: N | typeof MISSED): Sub[] => {
    if (note === MISSED) return [...subscriptions];
    const out = [...everyone];
    for (const topic of topics.values()) {
      const group = topic.note(note);
      for (const s of group === null ? topic.all : (topic.groups.get(group) ?? [])) out.push(s);
    }
    return out;
  };
  let unsubscribe: (() => void) | null = null;
  /** Batches still to be told, oldest notification first (each subscriber hears notifications in order). */
  const later: (() => void)[] = [];
  const tellLater = () => {
    later.shift()?.();
    if (later.length) setImmediate(tellLater);
  };
  const tell = (batch: Subscription<unknown, N, unknown>[], note: N | typeof MISSED, views: NoteViews) => {
    for (const s of batch) s.push(note, views);
  };
  const deliver = (note: N | typeof MISSED) => {
    const views = new NoteViews();
    const all = recipients(note);
    const queued = later.length > 0;
    if (!queued) tell(all.slice(0, batchSize), note, views);
    for (let i = queued ? 0 : batchSize; i < all.length; i += batchSize) {
      const batch = all.slice(i, i + batchSize);
      later.push(() => tell(batch, note, views));
    }
    if (!queued && later.length) setImmediate(tellLater);
  };

  const add = <V>(s: Sub, viewer: V) => {
    subscriptions.add(s);
    const rule = s.stream.topic as LiveTopic<V, N> | undefined;
    if (!rule) everyone.add(s);
    else {
      let topic = topics.get(s.stream.name);
      if (!topic) {
        topic = { note: (n) => rule.note(n), all: new Set(), groups: new Map() };
        topics.set(s.stream.name, topic);
      }
      const group = rule.of(viewer);
      topic.all.add(s);
      const members = topic.groups.get(group) ?? new Set<Sub>();
      topic.groups.set(group, members);
      members.add(s);
      groupOf.set(s, group);
    }
    unsubscribe ??= source.subscribe(deliver, () => deliver(MISSED));
  };
  const remove = (s: Sub) => {
    subscriptions.delete(s);
    everyone.delete(s);
    const topic = topics.get(s.stream.name);
    const group = groupOf.get(s);
    if (topic && group !== undefined) {
      groupOf.delete(s);
      topic.all.delete(s);
      const members = topic.groups.get(group);
      members?.delete(s);
      if (members?.size === 0) topic.groups.delete(group);
      if (topic.all.size === 0) topics.delete(s.stream.name);
    }
    s.finish();
    if (subscriptions.size === 0 && unsubscribe) {
      unsubscribe();
      unsubscribe = null;
    }
  };

  async function* open<V, E>(
    stream: LiveStream<V, N, E>,
    subscriber: LiveSubscriber<V>,
  ): AsyncGenerator<E | TrackedEnvelope<E>, void, unknown> {
    const s = new Subscription(stream, subscriber);
    const { signal } = subscriber;
    // Listen first: whatever happens while the catch-up loads is queued, and skipped if the catch-up covered it.
    add(s as Subscription<unknown, N, unknown>, subscriber.viewer);
    try {
      const head: [string | null, E][] = [];
      const resume = stream.resume;
      if (!resume) {
        head.push([null, stream.ready]);
      } else if (subscriber.cursor == null || subscriber.cursor === '') {
        s.covered = await resume.latest(subscriber.viewer);
        head.push([String(s.covered), stream.ready]);
      } else {
        const caughtUp = await resume.catchUp(subscriber.viewer, subscriber.cursor);
        for (const e of caughtUp.events) head.push([String(e.id), e.event]);
        s.covered = caughtUp.position;
        if (caughtUp.resync) head.push([String(s.covered), resume.resync]);
        head.push([String(s.covered), stream.ready]);
      }
      const as = (id: string | null, event: E | FirstMessage<E>) => (id === null ? event : tracked(id, event)) as E | TrackedEnvelope<E>;

      const { connection } = subscriber;
      if (connection) {
        // The first message goes through tRPC, which tells us the subscription's id as it sends it...
        let subscriptionHead: string | undefined;
        const [firstId, firstEvent] = head.shift()!;
        yield as(
          firstId,
          new FirstMessage(firstEvent, (id, jsonrpc) => {
            subscriptionHead = messageHead(id, jsonrpc, resume !== undefined);
          }),
        );
        if (subscriptionHead !== undefined) {
          // ...and everything after it, the rest of the catch-up included, is written by the channel.
          s.write = socketWriter(connection, subscriptionHead, () => s.finish());
          for (const [id, event] of head) s.write(id, event);
          s.release();
          await s.ended(signal);
          return;
        }
        // Not sent by our encoder (the adapter was set up without it): tRPC's loop carries everything.
      }

      // Without a socket, events go out through tRPC's loop: the writer queues them for it.
      const out: (E | TrackedEnvelope<E>)[] = head.map(([id, event]) => as(id, event));
      s.write = (id, shown) => {
        // A consumer that does not keep up: a resumable stream resyncs it, another keeps the latest events.
        if (out.length >= BACKLOG_MAX) {
          if (resume) out.splice(0, out.length, as(id, resume.resync));
          else out.shift();
        }
        out.push(as(id, shown instanceof SharedEvent ? (shown.event as E) : shown));
        s.wake();
      };
      signal?.addEventListener('abort', () => s.finish(), { once: true });
      if (signal?.aborted) s.finish();
      for (const e of out.splice(0)) yield e;
      s.release();
      while (true) {
        while (out.length) yield out.shift()!;
        if (s.finished) break;
        await s.changed();
      }
      await s.ended(undefined);
    } finally {
      remove(s as Subscription<unknown, N, unknown>);
    }
  }

  return {
    open: open as LiveChannel<N>['open'],
    get size() {
      return subscriptions.size;
    },
  };
}
