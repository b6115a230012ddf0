import type { Db } from '../db/index.js';
import type { CallSide } from './schema.js';

/** Queries of calls: the appointment as the call sees it, the two places, notes and the fallback link. */

export type CallAppointment = {
  id: number;
  /** null: a visitor's free consultation, booked without an account (only the team can open its call page). */
  client_id: number | null;
  dietitian_id: number;
  kind: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
  client_first_name: string | null;
  dietitian_first_name: string | null;
  /** A visitor's name as she gave it in her consultation request (null when the appointment has none). */
  visitor_name: string | null;
};

export function findAppointment(db: Db, id: number): Promise<CallAppointment | undefined> {
  return db
    .selectFrom('appointments as a')
    .leftJoin('users as c', 'c.id', 'a.client_id')
    .leftJoin('users as d', 'd.id', 'a.dietitian_id')
    .leftJoin('consultations as v', 'v.id', 'a.consultation_id')
    .select([
      'a.id',
      'a.client_id',
      'a.dietitian_id',
      'a.kind',
      'a.status',
      'a.starts_at',
      'a.ends_at',
      'c.first_name as client_first_name',
      'd.first_name as dietitian_first_name',
      'v.name as visitor_name',
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

export type Seat = { user_id: number | null; peer_id: string; claim_id: string; seen_at: Date };

export function findSeat(db: Db, appointmentId: number, side: CallSide): Promise<Seat | undefined> {
  return db
    .selectFrom('call_seats')
    .select(['user_id', 'peer_id', 'claim_id', 'seen_at'])
    .where('appointment_id', '=', appointmentId)
    .where('side', '=', side)
    .executeTakeFirst();
}

/**
 * Takes a side's place for this page, unless someone else holds it and was
 * seen after `staleBefore`. The same person may always take it over (a reload,
 * another device). Returns the place as it was before, or null when refused.
 */
export async function claimSeat(
  trx: Db,
  seat: { appointmentId: number; side: CallSide; userId: number | null; peerId: string; claimId: string; now: Date; staleBefore: Date },
): Promise<{ claimed: boolean; previousPeer: string | null }> {
  const before = await trx
    .selectFrom('call_seats')
    .select(['user_id', 'peer_id', 'seen_at'])
    .where('appointment_id', '=', seat.appointmentId)
    .where('side', '=', seat.side)
    .forUpdate()
    .executeTakeFirst();
  if (before && before.user_id !== seat.userId && before.seen_at > seat.staleBefore)
    return { claimed: false, previousPeer: before.peer_id };
  const row = { user_id: seat.userId, peer_id: seat.peerId, claim_id: seat.claimId, seen_at: seat.now, claimed_at: seat.now };
  await trx
    .insertInto('call_seats')
    .values({ appointment_id: seat.appointmentId, side: seat.side, ...row })
    .onConflict((oc) => oc.columns(['appointment_id', 'side']).doUpdateSet(row))
    .execute();
  return { claimed: true, previousPeer: before?.peer_id ?? null };
}

/** Marks a place as still held by this claim; false when it has been taken over. */
export async function touchSeat(db: Db, claimId: string, now: Date): Promise<boolean> {
  const r = await db.updateTable('call_seats').set({ seen_at: now }).where('claim_id', '=', claimId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Lets go of a place if this claim still holds it. */
export async function releaseSeat(trx: Db, claimId: string): Promise<{ appointment_id: number; side: CallSide } | undefined> {
  const row = await trx.deleteFrom('call_seats').where('claim_id', '=', claimId).returning(['appointment_id', 'side']).executeTakeFirst();
  return row ? { appointment_id: row.appointment_id, side: row.side as CallSide } : undefined;
}

export function fallbackUrlOf(db: Db, dietitianId: number): Promise<string | null> {
  return db
    .selectFrom('call_settings')
    .select('fallback_url')
    .where('dietitian_id', '=', dietitianId)
    .executeTakeFirst()
    .then((r) => r?.fallback_url ?? null);
}

export async function saveFallbackUrl(db: Db, dietitianId: number, url: string | null, now: Date): Promise<void> {
  await db
    .insertInto('call_settings')
    .values({ dietitian_id: dietitianId, fallback_url: url, updated_at: now })
    .onConflict((oc) => oc.column('dietitian_id').doUpdateSet({ fallback_url: url, updated_at: now }))
    .execute();
}

/** Session notes with their session's start and their author's name. */
const notes = (db: Db) =>
  db
    .selectFrom('session_notes as n')
    .innerJoin('appointments as a', 'a.id', 'n.appointment_id')
    .leftJoin('users as u', 'u.id', 'n.author_id')
    .select(['n.appointment_id', 'n.client_id', 'n.body', 'n.updated_at', 'a.starts_at', 'u.first_name as author_name']);

export function noteOf(db: Db, appointmentId: number) {
  return notes(db).where('n.appointment_id', '=', appointmentId).executeTakeFirst();
}

/** A client's session notes, newest session first (bounded; the index on client_id serves it). */
export function notesOfClient(db: Db, clientId: number, limit: number) {
  return notes(db).where('n.client_id', '=', clientId).orderBy('a.starts_at', 'desc').limit(limit).execute();
}

export async function saveNote(
  db: Db,
  note: { appointmentId: number; clientId: number; authorId: number; body: string; now: Date },
): Promise<void> {
  await db
    .insertInto('session_notes')
    .values({
      appointment_id: note.appointmentId,
      client_id: note.clientId,
      author_id: note.authorId,
      body: note.body,
      created_at: note.now,
      updated_at: note.now,
    })
    .onConflict((oc) => oc.column('appointment_id').doUpdateSet({ body: note.body, author_id: note.authorId, updated_at: note.now }))
    .execute();
}

/** The current version of an appointment's guest links, made (1) on first use. */
export async function guestLinkVersion(db: Db, appointmentId: number): Promise<number> {
  await db
    .insertInto('call_guest_links')
    .values({ appointment_id: appointmentId })
    .onConflict((oc) => oc.column('appointment_id').doNothing())
    .execute();
  return (await findGuestLinkVersion(db, appointmentId))!;
}

export function findGuestLinkVersion(db: Db, appointmentId: number): Promise<number | undefined> {
  return db
    .selectFrom('call_guest_links')
    .select('version')
    .where('appointment_id', '=', appointmentId)
    .executeTakeFirst()
    .then((r) => r?.version);
}

/** Revokes every guest link made so far (raises the version); returns the new version. */
export async function raiseGuestLinkVersion(trx: Db, appointmentId: number, by: number, now: Date): Promise<number> {
  await guestLinkVersion(trx, appointmentId);
  const row = await trx
    .updateTable('call_guest_links')
    .set((eb) => ({ version: eb('version', '+', 1), revoked_at: now, revoked_by: by, updated_at: now }))
    .where('appointment_id', '=', appointmentId)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** Puts a guest out of the client's place (her link was revoked); whether one was there. */
export async function releaseGuestSeat(trx: Db, appointmentId: number): Promise<boolean> {
  const r = await trx
    .deleteFrom('call_seats')
    .where('appointment_id', '=', appointmentId)
    .where('side', '=', 'client')
    .where('user_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Calls where the client's place is held (seen after `freshAfter`) and the
 * care team's is not, for sessions still open now: someone is waiting. The
 * primary key serves the seat lookups; the list is small by nature (bounded).
 */
export function waitingCalls(db: Db, freshAfter: Date, now: Date) {
  return db
    .selectFrom('call_seats as s')
    .innerJoin('appointments as a', 'a.id', 's.appointment_id')
    .leftJoin('users as c', 'c.id', 'a.client_id')
    .leftJoin('consultations as v', 'v.id', 'a.consultation_id')
    .select([
      's.appointment_id',
      's.claimed_at as waiting_since',
      'a.client_id',
      'a.starts_at',
      'c.first_name as client_first_name',
      'v.name as visitor_name',
    ])
    .where('s.side', '=', 'client')
    .where('s.seen_at', '>', freshAfter)
    .where('a.status', 'in', ['booked', 'done'])
    .where('a.ends_at', '>', new Date(now.getTime() - 30 * 60_000))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('call_seats as t')
            .select('t.appointment_id')
            .whereRef('t.appointment_id', '=', 's.appointment_id')
            .where('t.side', '=', 'team')
            .where('t.seen_at', '>', freshAfter),
        ),
      ),
    )
    .orderBy('s.claimed_at')
    .limit(50)
    .execute();
}
