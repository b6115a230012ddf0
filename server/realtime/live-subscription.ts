import { AppError } from '../errors.js';
import {
  BACKLOG_MAX,
  LIVE_BUFFER_MAX,
  type LiveConnection,
  type LiveResume,
  type LiveShown,
  type LiveStream,
  type LiveSubscriber,
  type LiveViews,
  SharedEvent,
  messageBytes,
} from './live-stream.js';

/** One subscriber of a live stream: its queue of notifications, its views of each, and what it writes to its socket. */

const sessionEnded = () => new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');

/** A backlog that grew past BACKLOG_MAX: a resumable stream resyncs from here. */
const TOO_FAR_BEHIND = Symbol('too far behind');
/** The source may have lost notifications here: catch up (resumable) or send `ready` again. */
export const MISSED = Symbol('missed');
type Queued<N> = { note: N | typeof TOO_FAR_BEHIND | typeof MISSED; views: NoteViews; position: number | null };

/** The shared views of one notification, per stream. */
export class NoteViews {
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
export function socketWriter<E>(connection: LiveConnection, head: string, close: () => void): Write<E> {
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

export class Subscription<V, N, E> {
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
