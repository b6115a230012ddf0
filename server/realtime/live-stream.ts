import type { Duplex } from 'node:stream';
import type { TrackedEnvelope } from '@trpc/server';
import type { WebSocket } from 'ws';
import { serializeOutput } from '../trpc/output.js';
import { messageTail, textFrame } from './frames.js';

/** The live channel's shapes: what a domain describes of its stream, what a subscriber brings, and a view many subscribers share (live-channel.ts says how they fit). */

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

export function messageBytes(head: string, trackedId: string | null, event: unknown): Bytes {
  const data = trackedId === null ? event : { id: trackedId, data: event };
  const text = Buffer.from(head + messageTail(trackedId, JSON.stringify(serializeOutput(data))));
  return { text, frame: textFrame(text) };
}
