import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import { parseNotification } from './notification.js';

/**
 * A LISTEN/NOTIFY source for a live stream (live-channel.ts LiveSource):
 * every instance LISTENs on `channel`, so a change committed on one reaches
 * the subscribers connected to any other. Payloads carry ids and small
 * numbers only (NOTIFY's limit is 8000 bytes; subscribers read what they may
 * see); `isNote` checks each one. There is no replay log: a stream that must
 * resume after a reconnect keeps its own (the feed's is feed-bus.ts).
 */
export interface NotifySource<N> {
  /** NOTIFYs every instance. Call it inside the transaction that made the change: NOTIFY fires only on commit. */
  publish(trx: Db, note: N): Promise<void>;
  subscribe(listener: (note: N) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createNotifySource<N>(
  handle: DbHandle,
  opts: { channel: string; name: string; isNote: (value: unknown) => value is N; onError?: (err: Error) => void },
): NotifySource<N> {
  const onError = opts.onError ?? (() => {});
  const listeners = new Set<(note: N) => void>();
  let unlisten: (() => Promise<void>) | null = null;
  return {
    async publish(trx, note) {
      await sql`select pg_notify(${opts.channel}, ${JSON.stringify(note)})`.execute(trx);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async start() {
      if (unlisten) return;
      unlisten = await handle.listen(opts.channel, (raw) => {
        const parsed = parseNotification(raw, opts.isNote, opts.name, onError);
        if (!parsed) return;
        for (const listener of listeners) {
          try {
            listener(parsed);
          } catch (err) {
            onError(err as Error);
          }
        }
      });
    },
    async stop() {
      const u = unlisten;
      unlisten = null;
      if (u) await u();
      listeners.clear();
    },
  };
}
