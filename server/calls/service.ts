import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Database } from '../db/index.js';
import type { IceServer } from '../env.js';
import { AppError } from '../errors.js';
import type { CallsBus } from './events.js';
import { checkGuestPass, type GuestPass, type GuestRefusal, guestCallLink } from './guest-link.js';
import * as repo from './repo.js';
import {
  CALL_GRACE_AFTER_MS,
  CALL_OPENS_BEFORE_MS,
  type CallInfo,
  type CallSide,
  type CallSignal,
  type CallWindowState,
  type SessionNote,
} from './schema.js';
import { iceServersFor } from './turn.js';

/**
 * The rules of a call (decision 120). Every signalling call goes
 * through `openCall`: the person must be the appointment's client or a
 * dietitian (anyone else is told there is no such call), and the call must be
 * open (10 minutes before the start until 30 minutes after the end, not
 * cancelled). Each side has one place; a page must hold its side's place to
 * send, and it sends only to the page holding the other place.
 */

export type CallsDeps = {
  db: Kysely<Database>;
  callsBus: CallsBus;
  /** The app secret: guest links are signed with it. */
  secret: string;
  config: { iceServers: IceServer[]; turnSecret: string | undefined };
};

/** A place is held while its page's subscription refreshes it (every SEAT_BEAT_MS); after SEAT_STALE_MS it is free. */
export const SEAT_BEAT_MS = 15_000;
export const SEAT_STALE_MS = 45_000;
/** Statuses whose call may be held (a session marked done early may still be finished). */
const CALLABLE = new Set(['booked', 'done']);
const NOTES_LISTED = 100;

const noSuchCall = () => new AppError('NOT_FOUND', 'There is no such call.');
const other = (side: CallSide): CallSide => (side === 'client' ? 'team' : 'client');

/** A call as one participant sees it: a signed-in person (userId) or a visitor in by her guest link (userId null). */
type Call = { appointment: repo.CallAppointment; side: CallSide; userId: number | null };

/** The appointment and this person's side of its call; NOT_FOUND for anyone who is not one of its two sides. */
async function callOf(db: Kysely<Database>, actor: SessionUser, appointmentId: number): Promise<Call> {
  const appointment = await repo.findAppointment(db, appointmentId);
  if (!appointment) throw noSuchCall();
  if (actor.role === ROLE.admin) return { appointment, side: 'team', userId: actor.id };
  if (actor.role === ROLE.client && appointment.client_id === actor.id) return { appointment, side: 'client', userId: actor.id };
  throw noSuchCall();
}

export function callWindow(a: { starts_at: Date; ends_at: Date; status: string }, now: Date) {
  const opensAt = new Date(a.starts_at.getTime() - CALL_OPENS_BEFORE_MS);
  const closesAt = new Date(a.ends_at.getTime() + CALL_GRACE_AFTER_MS);
  const state: CallWindowState = !CALLABLE.has(a.status) || now >= closesAt ? 'closed' : now < opensAt ? 'early' : 'open';
  return { opensAt, closesAt, state };
}

/** The call, when it may be held now; FORBIDDEN with the reason otherwise. */
async function openCall(db: Kysely<Database>, actor: SessionUser, appointmentId: number, now: Date): Promise<Call & { closesAt: Date }> {
  return whenOpen(await callOf(db, actor, appointmentId), now);
}

function whenOpen(call: Call, now: Date): Call & { closesAt: Date } {
  const { state, closesAt } = callWindow(call.appointment, now);
  if (state === 'early') throw new AppError('FORBIDDEN', 'The call opens 10 minutes before the appointment starts.');
  if (state === 'closed')
    throw new AppError(
      'FORBIDDEN',
      call.appointment.status === 'booked' || call.appointment.status === 'done'
        ? 'This call has ended.'
        : 'This appointment was cancelled, so its call is closed.',
    );
  return { ...call, closesAt };
}

export async function getCall(db: Kysely<Database>, actor: SessionUser, appointmentId: number, now: Date): Promise<CallInfo> {
  return callInfoOf(db, await callOf(db, actor, appointmentId), now);
}

async function callInfoOf(db: Kysely<Database>, call: Call, now: Date): Promise<CallInfo> {
  const { appointment: a, side } = call;
  const { opensAt, closesAt, state } = callWindow(a, now);
  return {
    appointmentId: a.id,
    kind: a.kind,
    status: a.status,
    startsAt: a.starts_at,
    endsAt: a.ends_at,
    opensAt,
    closesAt,
    state,
    side,
    clientId: a.client_id,
    otherName:
      (side === 'team' ? (a.client_first_name ?? a.visitor_name) : a.dietitian_first_name) ??
      (side === 'team' ? 'your visitor' : 'your dietitian'),
    guest: call.userId === null,
    visitorName: a.client_id === null ? a.visitor_name : null,
    fallbackUrl: await repo.fallbackUrlOf(db, a.dietitian_id),
  };
}

/** STUN/TURN for this person and this call: TURN credentials made from TURN_SECRET expire when the call closes. */
export async function iceConfig(deps: CallsDeps, actor: SessionUser, appointmentId: number, now: Date) {
  return iceConfigOf(deps, await openCall(deps.db, actor, appointmentId, now));
}

function iceConfigOf(deps: CallsDeps, call: Call & { closesAt: Date }) {
  // A guest's TURN name says which call it was made for (she has no user id).
  const who = call.userId ?? `guest-${call.appointment.id}`;
  return { iceServers: iceServersFor(deps.config.iceServers, deps.config.turnSecret, who, call.closesAt), expiresAt: call.closesAt };
}

export type HeldSeat = { appointmentId: number; side: CallSide; peerId: string; claimId: string };

/**
 * Takes this page's place in the call (its side's one place); CONFLICT when
 * another person holds it. Both sides are told (a page of the same person
 * that held it learns it was replaced).
 */
export async function takeSeat(deps: CallsDeps, actor: SessionUser, appointmentId: number, peerId: string, now: Date): Promise<HeldSeat> {
  return takeSeatOf(deps, await openCall(deps.db, actor, appointmentId, now), peerId, now);
}

async function takeSeatOf(deps: CallsDeps, call: Call, peerId: string, now: Date): Promise<HeldSeat> {
  const { side, userId } = call;
  const appointmentId = call.appointment.id;
  const claimId = randomUUID();
  const staleBefore = new Date(now.getTime() - SEAT_STALE_MS);
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const r = await repo.claimSeat(trx, { appointmentId, side, userId, peerId, claimId, now, staleBefore });
    if (r.claimed) await deps.callsBus.publishSeat(trx, { kind: 'seat', appointmentId, side, peerId });
    return r.claimed;
  });
  if (!claimed)
    throw new AppError(
      'CONFLICT',
      side === 'team' ? 'Another dietitian is already in this call.' : 'Someone is already in this call as the client.',
    );
  return { appointmentId, side, peerId, claimId };
}

/** Keeps the place held; false when it was taken over meanwhile. */
export const keepSeat = (deps: CallsDeps, seat: HeldSeat, now: Date) => repo.touchSeat(deps.db, seat.claimId, now);

/** Lets the place go (the page left or lost its connection); the other side is told. */
export async function leaveSeat(deps: CallsDeps, seat: HeldSeat): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const left = await repo.releaseSeat(trx, seat.claimId);
    if (left) await deps.callsBus.publishSeat(trx, { kind: 'seat', appointmentId: seat.appointmentId, side: seat.side, peerId: null });
  });
}

/**
 * Passes a signal from this page to the page holding the other place. The
 * sender must hold its own side's place; with nobody on the other side the
 * signal goes nowhere ({ delivered: false }: the other side says hello when it comes).
 */
export async function sendSignal(
  deps: CallsDeps,
  actor: SessionUser,
  input: { appointmentId: number; peerId: string; signal: CallSignal },
  now: Date,
): Promise<{ delivered: boolean }> {
  return sendSignalOf(deps, await openCall(deps.db, actor, input.appointmentId, now), input, now);
}

async function sendSignalOf(
  deps: CallsDeps,
  call: Call,
  input: { appointmentId: number; peerId: string; signal: CallSignal },
  now: Date,
): Promise<{ delivered: boolean }> {
  const { side } = call;
  const staleBefore = now.getTime() - SEAT_STALE_MS;
  const [mine, theirs] = await Promise.all([
    repo.findSeat(deps.db, input.appointmentId, side),
    repo.findSeat(deps.db, input.appointmentId, other(side)),
  ]);
  if (!mine || mine.user_id !== call.userId || mine.peer_id !== input.peerId)
    throw new AppError('CONFLICT', 'This page is not in the call (it was opened elsewhere). Reload to join again.');
  if (!theirs || theirs.seen_at.getTime() <= staleBefore) return { delivered: false };
  await deps.callsBus.sendSignal(deps.db, {
    kind: 'signal',
    appointmentId: input.appointmentId,
    toPeer: theirs.peer_id,
    fromPeer: input.peerId,
    signal: input.signal,
  });
  return { delivered: true };
}

/** The page-holding viewer of the call's stream (streams.ts). */
export type CallViewer = { appointmentId: number; side: CallSide; peerId: string; guest: boolean };

// ——— After the call: the dietitian's notes and settings ———

function noteView(row: NonNullable<Awaited<ReturnType<typeof repo.noteOf>>>): SessionNote {
  return {
    appointmentId: row.appointment_id,
    clientId: row.client_id,
    body: row.body,
    authorName: row.author_name,
    startsAt: row.starts_at,
    updatedAt: row.updated_at,
  };
}

/** The notes of one session (dietitians only: the admin router calls these). */
export async function sessionNote(db: Kysely<Database>, actor: SessionUser, appointmentId: number): Promise<SessionNote | null> {
  await callOf(db, actor, appointmentId);
  const row = await repo.noteOf(db, appointmentId);
  return row ? noteView(row) : null;
}

export async function saveSessionNote(
  db: Kysely<Database>,
  actor: SessionUser,
  input: { appointmentId: number; body: string },
  now: Date,
): Promise<SessionNote> {
  const { appointment } = await callOf(db, actor, input.appointmentId);
  if (actor.role !== ROLE.admin) throw noSuchCall();
  if (appointment.client_id === null)
    throw new AppError('CONFLICT', 'This session has no client record yet: convert the consultation first.');
  if (!CALLABLE.has(appointment.status) && appointment.status !== 'no_show')
    throw new AppError('CONFLICT', 'This appointment was cancelled: there is no session to write notes on.');
  if (now.getTime() < appointment.starts_at.getTime() - CALL_OPENS_BEFORE_MS)
    throw new AppError('CONFLICT', 'Session notes can be written once the session has begun.');
  const clientId = appointment.client_id;
  await repo.saveNote(db, { appointmentId: appointment.id, clientId, authorId: actor.id, body: input.body, now });
  return noteView((await repo.noteOf(db, appointment.id))!);
}

/** A client's session notes on their record, newest first. */
export async function clientSessionNotes(db: Kysely<Database>, clientId: number): Promise<SessionNote[]> {
  return (await repo.notesOfClient(db, clientId, NOTES_LISTED)).map(noteView);
}

export async function callSettings(db: Kysely<Database>, actor: SessionUser) {
  return { fallbackUrl: await repo.fallbackUrlOf(db, actor.id) };
}

export async function saveCallSettings(db: Kysely<Database>, actor: SessionUser, input: { fallbackUrl: string | null }, now: Date) {
  await repo.saveFallbackUrl(db, actor.id, input.fallbackUrl, now);
  return { fallbackUrl: input.fallbackUrl };
}

// ——— A visitor's guest link (guest-link.ts): the same call, the client's place, no account ———

const GUEST_REFUSALS: Record<GuestRefusal, string> = {
  invalid: 'This link does not open this call. Use the link in your booking mail, exactly as it came.',
  revoked: 'This link has been replaced by a newer one. Use the latest link we sent you.',
  expired: 'This consultation has ended, so its link no longer opens the call.',
  early: 'The call opens 10 minutes before the consultation starts.',
  cancelled: 'This consultation was cancelled, so its call is closed.',
};

function guestRefusal(reason: GuestRefusal): AppError {
  return new AppError(reason === 'invalid' ? 'NOT_FOUND' : 'FORBIDDEN', GUEST_REFUSALS[reason], { details: { reason } });
}

/**
 * The call a guest pass opens, as the client's side. `early` passes only for
 * the page (which then shows when it opens); `expired` only for a guest who
 * already holds her place (a session that runs over is not cut off).
 */
async function guestCallOf(deps: CallsDeps, pass: GuestPass, now: Date, allow: { early?: boolean; expired?: boolean } = {}): Promise<Call> {
  const appointment = await repo.findAppointment(deps.db, pass.appointmentId);
  if (!appointment) throw guestRefusal('invalid');
  const check = await checkGuestPass(deps.db, deps.secret, pass, appointment, now);
  if (!check.ok && !(check.reason === 'early' && allow.early) && !(check.reason === 'expired' && allow.expired))
    throw guestRefusal(check.reason);
  return { appointment, side: 'client', userId: null };
}

export async function getGuestCall(deps: CallsDeps, pass: GuestPass, now: Date): Promise<CallInfo> {
  return callInfoOf(deps.db, await guestCallOf(deps, pass, now, { early: true }), now);
}

export async function guestIceConfig(deps: CallsDeps, pass: GuestPass, now: Date) {
  return iceConfigOf(deps, whenOpen(await guestCallOf(deps, pass, now), now));
}

export async function takeGuestSeat(deps: CallsDeps, pass: GuestPass, peerId: string, now: Date): Promise<HeldSeat> {
  return takeSeatOf(deps, whenOpen(await guestCallOf(deps, pass, now), now), peerId, now);
}

export async function sendGuestSignal(
  deps: CallsDeps,
  pass: GuestPass,
  input: { peerId: string; signal: CallSignal },
  now: Date,
): Promise<{ delivered: boolean }> {
  const call = whenOpen(await guestCallOf(deps, pass, now, { expired: true }), now);
  return sendSignalOf(deps, call, { appointmentId: pass.appointmentId, ...input }, now);
}

/** An appointment a guest link may be made for: a visitor's, with no client account (yet). */
async function visitorCallOf(deps: CallsDeps, actor: SessionUser, appointmentId: number): Promise<repo.CallAppointment> {
  const { appointment } = await callOf(deps.db, actor, appointmentId);
  if (actor.role !== ROLE.admin) throw noSuchCall();
  if (appointment.client_id !== null)
    throw new AppError('CONFLICT', 'This session is with a client who signs in: their call page needs no guest link.');
  return appointment;
}

/** The current guest link of a visitor's session, for the dietitian to copy and send (the booking mail has it too). */
export async function guestLinkFor(deps: CallsDeps & { baseUrl: string }, actor: SessionUser, appointmentId: number, now: Date) {
  const appointment = await visitorCallOf(deps, actor, appointmentId);
  const link = await guestCallLink(
    deps.db,
    deps.secret,
    { id: appointment.id, endsAt: appointment.ends_at },
    { baseUrl: deps.baseUrl, now },
  );
  return { url: link.url, expiresAt: link.expiresAt };
}

/**
 * Revokes every guest link of the session made so far: each refuses from now
 * on, and a guest in the call is put out of it at once. The link made next
 * (guestLinkFor) works.
 */
export async function revokeGuestLinks(deps: CallsDeps & { baseUrl: string }, actor: SessionUser, appointmentId: number, now: Date) {
  await visitorCallOf(deps, actor, appointmentId);
  await deps.db.transaction().execute(async (trx) => {
    await repo.raiseGuestLinkVersion(trx, appointmentId, actor.id, now);
    const left = await repo.releaseGuestSeat(trx, appointmentId);
    if (left) await deps.callsBus.publishSeat(trx, { kind: 'seat', appointmentId, side: 'client', peerId: null });
    await deps.callsBus.publishRevoked(trx, { kind: 'revoked', appointmentId });
  });
  return guestLinkFor(deps, actor, appointmentId, now);
}

// ——— Who is waiting: a client (or guest) in a call the care team has not joined ———

export async function waitingCalls(db: Kysely<Database>, now: Date) {
  const rows = await repo.waitingCalls(db, new Date(now.getTime() - SEAT_STALE_MS), now);
  return rows.map((r) => ({
    appointmentId: r.appointment_id,
    name: r.client_first_name ?? r.visitor_name ?? 'A visitor',
    guest: r.client_id === null,
    startsAt: r.starts_at,
    waitingSince: r.waiting_since,
  }));
}
