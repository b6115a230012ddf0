import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { FollowUpReminderKind } from '../db/schema.js';
import { CHECK_IN_HISTORY_LIMIT } from './schema.js';

const checkInFields = ['id', 'client_id', 'date', 'weight_kg', 'adherence', 'notes', 'reply', 'replied_at', 'created_at'] as const;
const checkInColumns = checkInFields.map((f) => `c.${f}` as const);

/**
 * Stores a check-in and returns it as stored; with a clientRequestId already
 * used by this client, stores nothing and returns undefined (insertOnce).
 */
export function insertCheckIn(
  db: Db,
  row: {
    client_id: number;
    date: string;
    weight_kg: number;
    adherence: number;
    notes: string | null;
    created_at: Date;
    client_request_id: string | null;
  },
) {
  return db
    .insertInto('check_ins')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_request_id']).doNothing())
    .returning([...checkInFields, sql<string | null>`null`.as('replier_first'), sql<string | null>`null`.as('replier_last')])
    .executeTakeFirst();
}

function withReplier(db: Db) {
  return db
    .selectFrom('check_ins as c')
    .leftJoin('users as d', 'd.id', 'c.replied_by')
    .select([...checkInColumns, 'd.first_name as replier_first', 'd.last_name as replier_last']);
}

/** The check-in a client sent with this key, if any. */
export function findCheckInByKey(db: Db, clientId: number, clientRequestId: string) {
  return withReplier(db).where('c.client_id', '=', clientId).where('c.client_request_id', '=', clientRequestId).executeTakeFirst();
}

/** A client's check-ins, newest first, with the replying dietitian's name. */
export function listCheckIns(db: Db, clientId: number, limit = CHECK_IN_HISTORY_LIMIT) {
  return withReplier(db).where('c.client_id', '=', clientId).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute();
}

export function findCheckIn(db: Db, id: number) {
  return db
    .selectFrom('check_ins as c')
    .innerJoin('users as u', 'u.id', 'c.client_id')
    .select([...checkInColumns, 'u.email', 'u.first_name', 'u.last_name'])
    .where('c.id', '=', id)
    .forUpdate('c')
    .executeTakeFirst();
}

export function setReply(db: Db, id: number, reply: string, dietitianId: number, at: Date) {
  return db
    .updateTable('check_ins')
    .set({ reply, replied_at: at, replied_by: dietitianId })
    .where('id', '=', id)
    .returning(['id', 'replied_at'])
    .executeTakeFirstOrThrow();
}

/** The latest check-in day of each client. */
export function lastCheckInDays(db: Db, clientIds: number[]) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('check_ins')
    .select(['client_id', (eb) => eb.fn.max('date').as('date')])
    .where('client_id', 'in', clientIds)
    .groupBy('client_id')
    .execute();
}

/** Each client's latest check-in (by when it was sent), for the follow-up queue. */
export function latestCheckIns(db: Db, clientIds: number[]) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('check_ins as c')
    .select([...checkInColumns])
    .distinctOn('c.client_id')
    .where('c.client_id', 'in', clientIds)
    .orderBy('c.client_id')
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

/**
 * The last moment each client and the practice were in touch, over every
 * channel: a check-in she sent or its reply, a message from a dietitian, a
 * dietitian's comment on her journal, a session marked done. A client's own
 * message or meal comment alone is not counted: until someone answers it she
 * is waiting on the practice, not in touch with it (the answer counts). The
 * automatic away reply is the system's, not a person's, and is not counted.
 * This is the one definition the follow-up queue shows and the check-in
 * schedule (and so the reminder mails) counts from.
 */
export function lastContacts(db: Db, clientIds: number[]) {
  if (clientIds.length === 0) return Promise.resolve([] as { client_id: number; at: Date }[]);
  const touches = db
    .selectFrom('check_ins')
    .select(['client_id', sql<Date>`greatest(created_at, coalesce(replied_at, created_at))`.as('at')])
    .where('client_id', 'in', clientIds)
    .unionAll(
      db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(['c.client_id', 'm.sent_at as at'])
        .where('c.client_id', 'in', clientIds)
        .where('m.sender_role', '=', 'dietitian'),
    )
    .unionAll(
      db
        .selectFrom('meal_comments as mc')
        .innerJoin('meal_entries as e', 'e.id', 'mc.entry_id')
        .select(['e.client_id', 'mc.created_at as at'])
        .where('e.client_id', 'in', clientIds)
        .where('mc.author_role', '=', 'dietitian'),
    )
    .unionAll(
      db
        .selectFrom('appointments as a')
        .select([sql<number>`a.client_id`.as('client_id'), 'a.starts_at as at'])
        .where('a.client_id', 'in', clientIds)
        .where('a.status', '=', 'done'),
    );
  return db
    .selectFrom(touches.as('t'))
    .select(['t.client_id', sql<Date>`max(t.at)`.as('at')])
    .groupBy('t.client_id')
    .execute();
}

/** Running subscriptions on `today` (not cancelled, started, not ended), with their client; the latest start per client. */
export function runningSubscriptions(db: Db, today: string, clientId?: number, limit = 1000) {
  let q = db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.client_id')
    .select([
      's.id',
      's.client_id',
      's.plan_type',
      's.plan_id',
      's.plan_name',
      's.start_date',
      's.end_date',
      'u.first_name',
      'u.last_name',
      'u.email',
    ])
    .distinctOn('s.client_id')
    .where('s.cancelled_at', 'is', null)
    .where('s.start_date', '<=', today)
    // A paused subscription stays running past its end date: resuming moves the end date out.
    .where((eb) =>
      eb.or([
        eb('s.end_date', '>=', today),
        eb.exists(
          eb
            .selectFrom('subscription_pauses as p')
            .select('p.id')
            .whereRef('p.subscription_id', '=', 's.id')
            .where('p.resumed_on', 'is', null),
        ),
      ]),
    )
    .where('u.is_active', '=', true);
  if (clientId !== undefined) q = q.where('s.client_id', '=', clientId);
  return q.orderBy('s.client_id').orderBy('s.start_date', 'desc').orderBy('s.id', 'desc').limit(limit).execute();
}

export function pausesOf(db: Db, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('subscription_pauses')
    .select(['id', 'subscription_id', 'paused_from', 'resumed_on', 'reason'])
    .where('subscription_id', 'in', subscriptionIds)
    .orderBy('paused_from')
    .execute();
}

/** Recent weights of several clients (for the queue's small trend charts), oldest first per client. */
export function recentWeights(db: Db, clientIds: number[], since: string) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('weights')
    .select(['client_id', 'date', 'weight_kg'])
    .where('client_id', 'in', clientIds)
    .where('date', '>=', since)
    .orderBy('client_id')
    .orderBy('date')
    .execute();
}

/** Claims a reminder: the row is inserted once per client, kind and due date, whoever asks first. */
export function claimReminder(db: Db, row: { client_id: number; kind: FollowUpReminderKind; due_date: string }) {
  return db
    .insertInto('follow_up_reminders')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'kind', 'due_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function linkReminderMail(db: Db, reminderId: number, outboxId: number) {
  return db.updateTable('follow_up_reminders').set({ outbox_id: outboxId }).where('id', '=', reminderId).execute();
}

/** A subscription with its client, locked for a pause or resume. */
export function lockSubscription(db: Db, id: number) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.client_id')
    .select([
      's.id',
      's.client_id',
      's.plan_name',
      's.start_date',
      's.end_date',
      's.cancelled_at',
      'u.email',
      'u.first_name',
      'u.last_name',
    ])
    .where('s.id', '=', id)
    .forUpdate('s')
    .executeTakeFirst();
}

export function openPause(db: Db, subscriptionId: number) {
  return db
    .selectFrom('subscription_pauses')
    .select(['id', 'paused_from', 'reason'])
    .where('subscription_id', '=', subscriptionId)
    .where('resumed_on', 'is', null)
    .executeTakeFirst();
}

export function insertPause(db: Db, row: { subscription_id: number; paused_from: string; reason: string | null; paused_by: number }) {
  return db.insertInto('subscription_pauses').values(row).returning('id').executeTakeFirstOrThrow();
}

export async function closePause(db: Db, pauseId: number, subscriptionId: number, resumedOn: string, resumedBy: number, endDate: string) {
  await db.updateTable('subscription_pauses').set({ resumed_on: resumedOn, resumed_by: resumedBy }).where('id', '=', pauseId).execute();
  await db.updateTable('subscriptions').set({ end_date: endDate }).where('id', '=', subscriptionId).execute();
}

/** The client of a conversation, and who sent its message `seq` (the care-loop channel's contact rule). */
export function messageSenderIn(db: Db, conversationId: number, seq: number) {
  return db
    .selectFrom('conversations as c')
    .leftJoin('messages as m', (j) => j.onRef('m.conversation_id', '=', 'c.id').on('m.seq', '=', seq))
    .select(['c.client_id', 'm.sender_role'])
    .where('c.id', '=', conversationId)
    .executeTakeFirst();
}
