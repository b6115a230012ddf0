import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import { AppError } from '../errors.js';
import { parseNotification } from './notification.js';

/**
 * The follow-up loop's live events (issue 13), a sibling of the feed bus on
 * its own NOTIFY channel: every instance LISTENs, so a check-in written on one
 * instance reaches the dietitians connected to any other. The events carry
 * ids only; subscribers read what they may see. There is no replay log: the
 * follow-up screens show current state, so a subscriber (re)loads it when its
 * subscription starts and after a reconnect.
 */
export const FOLLOW_UP_CHANNEL = 'poshan_follow_up';

export const FOLLOW_UP_EVENT_KINDS = ['check-in.created', 'check-in.replied', 'schedule.changed'] as const;
export type FollowUpNotification = {
  kind: (typeof FOLLOW_UP_EVENT_KINDS)[number];
  clientId: number;
  checkInId?: number;
};

export interface FollowUpBus {
  /** NOTIFYs every instance. Call it inside the transaction that made the change: NOTIFY fires only on commit. */
  publish(trx: Db, event: FollowUpNotification): Promise<void>;
  subscribe(listener: (event: FollowUpNotification) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function isNotification(value: unknown): value is FollowUpNotification {
  const v = value as FollowUpNotification;
  return (
    typeof v === 'object' &&
    v !== null &&
    (FOLLOW_UP_EVENT_KINDS as readonly string[]).includes(v.kind) &&
    Number.isSafeInteger(v.clientId) &&
    (v.checkInId === undefined || Number.isSafeInteger(v.checkInId))
  );
}

export function createFollowUpBus(handle: DbHandle, onError: (err: Error) => void = () => {}): FollowUpBus {
  const listeners = new Set<(event: FollowUpNotification) => void>();
  let unlisten: (() => Promise<void>) | null = null;
  return {
    async publish(trx, event) {
      await sql`select pg_notify(${FOLLOW_UP_CHANNEL}, ${JSON.stringify(event)})`.execute(trx);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async start() {
      if (unlisten) return;
      unlisten = await handle.listen(FOLLOW_UP_CHANNEL, (raw) => {
        const parsed = parseNotification(raw, isNotification, 'follow-up', onError);
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

/**
 * The events one subscriber may see, as an async iterable that ends when the
 * signal aborts: subscribes first, then yields `{ kind: 'ready' }`, so a
 * subscriber that loads its data on 'ready' misses nothing.
 */
export async function* followUpStream<T>(
  bus: FollowUpBus,
  signal: AbortSignal | undefined,
  view: (event: FollowUpNotification) => T | null,
  ready: T,
  stillAllowed: () => boolean | Promise<boolean> = () => true,
): AsyncGenerator<T, void, unknown> {
  const pending: T[] = [];
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const unsubscribe = bus.subscribe((event) => {
    const seen = view(event);
    if (seen === null) return;
    // A stalled subscriber keeps only the latest events: each one means "reload".
    if (pending.length >= 100) pending.shift();
    pending.push(seen);
    wakeUp();
  });
  signal?.addEventListener('abort', wakeUp, { once: true });
  try {
    yield ready;
    while (!signal?.aborted) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if (!(await stillAllowed())) throw new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');
      yield pending.shift() as T;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', wakeUp);
  }
}
