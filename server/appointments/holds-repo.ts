import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/* Visitors' held consultation times (the table consultation_holds). */

/**
 * Serialises the holds of one dietitian's calendar until the caller's transaction ends: a visitor's new
 * hold, a client's booking over a held time and a confirmation see each other's writes.
 */
export async function lockHoldsOf(trx: Db, dietitianId: number) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`consultation-holds:${dietitianId}`}, 0))`.execute(trx);
}

/** Serialises the live-hold caps of one network address and one e-mail address (in that fixed order). */
export async function lockHoldCaps(trx: Db, ip: string, email: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`consultation-holds:ip:${ip}`}, 0))`.execute(trx);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`consultation-holds:email:${email.trim().toLowerCase()}`}, 0))`.execute(trx);
}

/** Live holds (unconfirmed, expiring after `now`) of these dietitians overlapping [from, to). */
export function liveHoldRanges(db: Db, dietitianIds: number[], from: Date, to: Date, now: Date) {
  if (dietitianIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('consultation_holds')
    .select(['id', 'dietitian_id', 'starts_at', 'busy_until'])
    .where('dietitian_id', 'in', dietitianIds)
    .where('status', '=', 'held')
    .where('expires_at', '>', now)
    .where('starts_at', '<', to)
    .where('busy_until', '>', from)
    .execute();
}

/** How many live holds requests from this address, and for this e-mail address, have. */
export async function countLiveHolds(db: Db, ip: string, email: string, now: Date) {
  const [byIp, byEmail] = await Promise.all([
    db
      .selectFrom('consultation_holds')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('requester_ip', '=', ip)
      .where('status', '=', 'held')
      .where('expires_at', '>', now)
      .executeTakeFirst(),
    db
      .selectFrom('consultation_holds as h')
      .innerJoin('consultations as c', 'c.id', 'h.consultation_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(sql`lower(c.email)`, '=', email.trim().toLowerCase())
      .where('h.status', '=', 'held')
      .where('h.expires_at', '>', now)
      .executeTakeFirst(),
  ]);
  return { byIp: Number(byIp?.n ?? 0), byEmail: Number(byEmail?.n ?? 0) };
}

export function insertHold(
  trx: Db,
  values: {
    consultation_id: number;
    dietitian_id: number;
    starts_at: Date;
    ends_at: Date;
    busy_until: Date;
    expires_at: Date;
    requester_ip: string;
    created_at: Date;
  },
) {
  return trx.insertInto('consultation_holds').values(values).returning(['id', 'expires_at']).executeTakeFirstOrThrow();
}

const holdColumns = [
  'h.id',
  'h.consultation_id',
  'h.dietitian_id',
  'h.starts_at',
  'h.ends_at',
  'h.busy_until',
  'h.expires_at',
  'h.status',
  'h.appointment_id',
  'c.name as visitor_name',
  'c.email as visitor_email',
] as const;

/** Which request a hold belongs to (what its confirm link is signed for). */
export function findHold(db: Db, id: number) {
  return db.selectFrom('consultation_holds').select(['id', 'consultation_id']).where('id', '=', id).executeTakeFirst();
}

/** A hold with its visitor, locked for the caller's transaction. */
export function lockHold(trx: Db, id: number) {
  return trx
    .selectFrom('consultation_holds as h')
    .innerJoin('consultations as c', 'c.id', 'h.consultation_id')
    .select(holdColumns)
    .where('h.id', '=', id)
    .forUpdate('h')
    .executeTakeFirst();
}

/** The hold of a consultation request, locked, if it has one. */
export function lockHoldOfConsultation(trx: Db, consultationId: number) {
  return trx
    .selectFrom('consultation_holds as h')
    .innerJoin('consultations as c', 'c.id', 'h.consultation_id')
    .select(holdColumns)
    .where('h.consultation_id', '=', consultationId)
    .forUpdate('h')
    .executeTakeFirst();
}

/** Live holds of one dietitian overlapping [start, busyUntil), with their visitors, locked. */
export function lockLiveHoldsOver(trx: Db, dietitianId: number, start: Date, busyUntil: Date, now: Date) {
  return trx
    .selectFrom('consultation_holds as h')
    .innerJoin('consultations as c', 'c.id', 'h.consultation_id')
    .select(holdColumns)
    .where('h.dietitian_id', '=', dietitianId)
    .where('h.status', '=', 'held')
    .where('h.expires_at', '>', now)
    .where('h.starts_at', '<', busyUntil)
    .where('h.busy_until', '>', start)
    .orderBy('h.id')
    .forUpdate('h')
    .execute();
}

export type HoldRow = NonNullable<Awaited<ReturnType<typeof lockHold>>>;

export function settleHold(trx: Db, id: number, s: { status: 'confirmed' | 'released'; appointmentId?: number; now: Date }) {
  return trx
    .updateTable('consultation_holds')
    .set({ status: s.status, appointment_id: s.appointmentId ?? null, settled_at: s.now })
    .where('id', '=', id)
    .execute();
}
