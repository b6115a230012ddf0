import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';
import type { PushDeliveryState, PushPayload, PushUrgency } from '../db/schema.js';

/** Push subscriptions and deliveries (decision 115). */

/**
 * Registers a browser for a person, tied to the sign-in making the call, and
 * keeps the newest `keep.perSignIn` of that sign-in and `keep.perPerson` of the
 * person (by last registration). The person's registrations wait on each
 * other (a lock per person), so two at once cannot both miss the other's row.
 * - The same person again (a new sign-in, new keys): their row is updated.
 * - Another person naming the endpoint: a row of their own; the first
 *   person's stays theirs. Only when the keys are the same too, which only the
 *   browser holds (its auth secret), has the browser itself passed to another
 *   account: the earlier person's row goes, it no longer reaches them.
 */
export async function saveSubscription(
  trx: Tx,
  row: { user_id: number; family_id: string; endpoint: string; p256dh: string; auth: string },
  keep: { perSignIn: number; perPerson: number },
) {
  await sql`select pg_advisory_xact_lock(hashtext('poshan:push_subscriptions'), ${row.user_id})`.execute(trx);
  await trx
    .deleteFrom('push_subscriptions')
    .where('endpoint', '=', row.endpoint)
    .where('user_id', '<>', row.user_id)
    .where('p256dh', '=', row.p256dh)
    .where('auth', '=', row.auth)
    .execute();
  const saved = await trx
    .insertInto('push_subscriptions')
    .values({ ...row, registered_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.columns(['user_id', 'endpoint']).doUpdateSet({
        family_id: row.family_id,
        p256dh: row.p256dh,
        auth: row.auth,
        registered_at: sql<Date>`now()`,
      }),
    )
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  await dropAllButNewest(trx, row.user_id, row.family_id, keep.perSignIn);
  await dropAllButNewest(trx, row.user_id, null, keep.perPerson);
  return saved;
}

/** Deletes a person's registrations (of one sign-in, or all) beyond the newest `keep`. */
function dropAllButNewest(trx: Tx, userId: number, familyId: string | null, keep: number) {
  return trx
    .deleteFrom('push_subscriptions')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .$if(familyId !== null, (q) => q.where('family_id', '=', familyId!))
        .orderBy('registered_at', 'desc')
        .orderBy('id', 'desc')
        .offset(keep),
    )
    .execute();
}

export function deleteOwnSubscription(db: Db, userId: number, endpoint: string) {
  return db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
}

/** The devices of sign-ins that just ended (sign-out, a device signed out, password change, deactivation). */
export function deleteSubscriptionsOfFamilies(db: Db, userId: number, familyIds: string[]) {
  if (familyIds.length === 0) return Promise.resolve();
  return db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('family_id', 'in', familyIds).execute();
}

export function deleteSubscription(db: Db, id: number) {
  return db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

export function findSubscription(db: Db, id: number) {
  return db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('id', '=', id).executeTakeFirst();
}

/** A notice's push as `record_push_notices` (migration 2026-11-26T0900) takes it: one per person, fanned out to their devices. */
export type PushNoticeRow = {
  user_id: number;
  category: string;
  key: string;
  payload: PushPayload;
  ttl_seconds: number;
  urgency: PushUrgency;
};

/**
 * Records a push per notice and device of a live sign-in, unless the person turned pushes of the category off,
 * once per key and device (a repeat records nothing); one statement. Returns the new deliveries' ids.
 */
export async function recordPushNotices(db: Db, rows: readonly PushNoticeRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const { rows: ids } = await sql<{ id: number }>`select record_push_notices(${JSON.stringify(rows)}::jsonb) as id`.execute(db);
  return ids.map((r) => r.id);
}

/**
 * Takes a delivery that is due (or whose sender stopped answering: its lease
 * ran out) for one attempt; nothing when it is settled, not yet due, or held
 * by another sender.
 */
export function claimDelivery(db: Db, id: number, leaseSeconds: number) {
  return db
    .updateTable('push_deliveries')
    .set((eb) => ({
      state: 'sending',
      attempts: eb('attempts', '+', 1),
      locked_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
    }))
    .where('id', '=', id)
    .where((w) =>
      w.or([
        w.and([w('state', '=', 'pending'), w('next_attempt_at', '<=', sql<Date>`now()`)]),
        w.and([w('state', '=', 'sending'), w('locked_until', '<', sql<Date>`now()`)]),
      ]),
    )
    .returning(['id', 'subscription_id', 'notification_key', 'payload', 'ttl_seconds', 'urgency', 'attempts'])
    .executeTakeFirst();
}

/** Records how an attempt ended (only while the attempt's lease is held: state 'sending'). */
export function settleDelivery(db: Db, id: number, state: Exclude<PushDeliveryState, 'pending' | 'sending'>, error: string | null) {
  return db
    .updateTable('push_deliveries')
    .set({ state, last_error: error?.slice(0, 500) ?? null, locked_until: null, settled_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .executeTakeFirst();
}

/** A failed attempt that will be tried again after `seconds`. */
export function deliverLater(db: Db, id: number, seconds: number, error: string) {
  return db
    .updateTable('push_deliveries')
    .set({
      state: 'pending',
      last_error: error.slice(0, 500),
      locked_until: null,
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${seconds})`,
    })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .executeTakeFirst();
}

/** Deliveries due now (queued jobs lost to a stop, or leases run out), oldest first, along push_deliveries_owed_idx. */
export function owedDeliveries(db: Db, limit: number) {
  return db
    .selectFrom('push_deliveries')
    .select('id')
    .where('state', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .where((w) => w.or([w('state', '=', 'pending'), w('locked_until', '<', sql<Date>`now()`)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/** Failed deliveries (retries used up) for the console's health card: the count and the newest. */
export async function failedDeliveries(db: Db, limit: number) {
  const [count, newest] = await Promise.all([
    db
      .selectFrom('push_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('state', '=', 'failed')
      .executeTakeFirst(),
    db
      .selectFrom('push_deliveries')
      .select(['id', 'service_host', 'last_error', 'attempts', 'settled_at'])
      .where('state', '=', 'failed')
      .orderBy('settled_at', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return { count: Number(count?.n ?? 0), newest };
}

/** The server's stored VAPID pair (sealed private half), if one was made. */
export function findVapidKeys(db: Db) {
  return db.selectFrom('push_vapid_keys').select(['public_key', 'private_key_sealed']).where('id', '=', 1).executeTakeFirst();
}

/** Stores a pair unless one is there already (another instance's, made at the same moment); true when this one was stored. */
export async function insertVapidKeysUnlessPresent(db: Db, pair: { public_key: string; private_key_sealed: string }): Promise<boolean> {
  const inserted = await db
    .insertInto('push_vapid_keys')
    .values({ id: 1, ...pair })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}
