import type { Kysely, Transaction } from 'kysely';
import { claimAttachments } from '../attachments/service.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import { fullNameOf } from '../auth/session.js';
import { insertOnce, type RepeatFields, sameRequest } from '../db/idempotent.js';
import type { Database } from '../db/schema.js';
import type { RateLimits } from '../env.js';
import { AppError, badRequest } from '../errors.js';
import { type FollowUpNotification, notifyFollowUp } from '../check-in/bus.js';
import { serviceDay } from '../time.js';
import { FUTURE_DATE_MESSAGE } from './schema.js';

/** What every care-record use case shares: its dependencies, the future-date rule, one counted create, and a file's claim. */

export type CareRecordDeps = { db: Kysely<Database>; config: { rateLimits: Pick<RateLimits, 'careRecord' | 'intakeSaves'> } };

export function refuseFuture(date: string, now: Date, field = 'date', message = FUTURE_DATE_MESSAGE) {
  if (date > serviceDay(now)) throw badRequest(message, { [field]: [message] });
}

/**
 * One new row of a client's record, stored once per clientRequestId and counted
 * against the client's limit only when it is new. `find` reads the row a key made;
 * `insert` stores it (undefined when the key was used already) and may claim files.
 * A new row is told live to both sides (`live`) once it commits.
 */
export async function createOnce<Row>(
  deps: CareRecordDeps,
  clientId: number,
  now: Date,
  steps: {
    find: (trx: Transaction<Database>) => Promise<Row | undefined>;
    insert: (trx: Transaction<Database>) => Promise<Row | undefined>;
    /** What a repeat must carry as the first did (its key sent with other details is refused, 422). */
    same: (first: Row) => RepeatFields;
    /** The live note of a new row: which part of the record changed. */
    live: Omit<FollowUpNotification, 'kind' | 'clientId'>;
  },
): Promise<{ row: Row; created: boolean }> {
  const limit: KindedLimit = {
    kind: 'care-record-client',
    bucket: bucket.careRecordClient(clientId),
    ...deps.config.rateLimits.careRecord,
  };
  return deps.db.transaction().execute(async (trx) => {
    // One create at a time per client (the limit's lock): a repeat racing its first waits, then finds it.
    await lockBuckets(trx, [limit]);
    const sameAs = (row: Row) => sameRequest('clientRequestId', steps.same(row));
    const first = await steps.find(trx);
    if (first) {
      sameAs(first);
      return { row: first, created: false };
    }
    const wait = await secondsUntilAllowed(trx, limit, now);
    if (wait > 0) throw tooManyRequests('additions to this client’s record', wait, [limit.kind]);
    const once = await insertOnce({ insert: () => steps.insert(trx), existing: () => steps.find(trx), sameAs });
    if (once.created) {
      await recordSlots(trx, [limit], now);
      await notifyFollowUp(trx, { kind: 'care-record', clientId, ...steps.live });
    }
    return once;
  });
}

/** Claims the one upload a photo or document names; its refusals name this API's field, attachmentId. */
export async function claimOne(trx: Transaction<Database>, args: Omit<Parameters<typeof claimAttachments>[1], 'ids'> & { id: string }) {
  try {
    const [view] = await claimAttachments(trx, { ...args, ids: [args.id] });
    return view!;
  } catch (error) {
    if (error instanceof AppError && error.fieldErrors?.attachmentIds) {
      throw badRequest(error.message, { attachmentId: error.fieldErrors.attachmentIds });
    }
    throw error;
  }
}

export const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

export const nameOf = (first: string | null, last: string | null) =>
  first === null ? null : fullNameOf({ first_name: first, last_name: last ?? '' });
