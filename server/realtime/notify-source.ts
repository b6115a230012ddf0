import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import { parseNotification } from './notification.js';

/**
 * A LISTEN/NOTIFY source for a live stream (live-channel.ts LiveSource):
 * every instance LISTENs on `channel`, so a change committed on one reaches
 * the subscribers connected to any other. Payloads carry ids and small
 * numbers only (NOTIFY's limit is 8000 bytes; subscribers read what they may
 * see); `isNote` checks each one. There is no replay log: when the LISTEN
 * connection comes back after a drop, subscribers are told they may have
 * missed notifications (the live channel catches them up from the database).
 */
export interface NotifySource<N> {
  /** NOTIFYs every instance. Call it inside the transaction that made the change: NOTIFY fires only on commit. */
  publish(trx: Db, note: N): Promise<void>;
  /** `missed`: the LISTEN connection dropped and came back, and notifications sent meanwhile are lost. */
  subscribe(listener: (note: N) => void, missed?: () => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createNotifySource<N>(
  handle: DbHandle,
  opts: { channel: string; name: string; isNote: (value: unknown) => value is N; onError?: (err: Error) => void },
): NotifySource<N> {
  const onError = opts.onError ?? (() => {});
  const listeners = new Set<(note: N) => void>();
  const missedListeners = new Set<() => void>();
  const each = <A extends unknown[]>(fns: Iterable<(...args: A) => void>, ...args: A) => {
    for (const fn of fns) {
      try {
        fn(...args);
      } catch (err) {
        onError(err as Error);
      }
    }
  };
  let unlisten: (() => Promise<void>) | null = null;
  return {
    async publish(trx, note) {
      await sql`select pg_notify(${opts.channel}, ${JSON.stringify(note)})`.execute(trx);
    },
    subscribe(listener, missed) {
      listeners.add(listener);
      if (missed) missedListeners.add(missed);
      return () => {
        listeners.delete(listener);
        if (missed) missedListeners.delete(missed);
      };
    },
    async start() {
      if (unlisten) return;
      unlisten = await handle.listen(
        opts.channel,
        (raw) => {
          const parsed = parseNotification(raw, opts.isNote, opts.name, onError);
          if (parsed) each(listeners, parsed);
        },
        () => each(missedListeners),
      );
    },
    async stop() {
      const u = unlisten;
      unlisten = null;
      if (u) await u();
      listeners.clear();
      missedListeners.clear();
    },
  };
}
