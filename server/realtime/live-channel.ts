import { type TrackedEnvelope, tracked } from '@trpc/server';
import { FirstMessage } from '../trpc/output.js';
import { messageHead } from './frames.js';
import {
  BACKLOG_MAX,
  DELIVER_BATCH,
  type LiveChannel,
  type LiveSource,
  type LiveStream,
  type LiveSubscriber,
  type LiveTopic,
  SharedEvent,
} from './live-stream.js';
import { MISSED, NoteViews, Subscription, socketWriter } from './live-subscription.js';

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

/** The shapes a domain and a transport use, with the channel: one import for all of it. */
export {
  BACKLOG_MAX,
  DELIVER_BATCH,
  LIVE_BUFFER_MAX,
  type LiveCatchUp,
  type LiveChannel,
  type LiveConnection,
  type LiveResume,
  type LiveShown,
  type LiveSource,
  type LiveStream,
  type LiveSubscriber,
  type LiveTopic,
  type LiveViews,
  type ResumableStream,
  SharedEvent,
} from './live-stream.js';

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
