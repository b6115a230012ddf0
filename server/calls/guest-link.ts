import type { Db } from '../db/index.js';
import { createLinkSigner } from '../http/signed-link.js';
import * as repo from './repo.js';
import { CALL_GRACE_AFTER_MS, CALL_OPENS_BEFORE_MS } from './schema.js';

/**
 * The link a visitor joins her free consultation's call with, without an
 * account: `/call/guest/<appointment>?v=<version>&exp=<end>&sig=<HMAC>`.
 * The signature (the one link signer, its own purpose) covers the
 * appointment, the version of its guest links and the session's end, so a
 * link opens that one call only, from 10 minutes before the start until the
 * end, and stops at once when the version is raised (revoked). Minting keeps
 * the version row; nothing else about the visitor is in the link.
 */

/** A consultation is booked at most this far ahead; a link claiming a later end is not ours. */
const LONGEST_AHEAD_SECONDS = 400 * 24 * 3600;
const links = createLinkSigner('poshan:call-guest-link:v1', LONGEST_AHEAD_SECONDS);
const subjectOf = (appointmentId: number, version: number) => `${appointmentId}.${version}`;

export const guestCallPathOf = (appointmentId: number) => `/call/guest/${appointmentId}`;

/** What the guest page sends back with every call: the link's own parts, as strings (checked here). */
export type GuestPass = { appointmentId: number; v: string; exp: string; sig: string };

export type GuestLink = {
  /** The path and query, for a mail that adds its own base address. */
  path: string;
  /** The whole address (base + path). */
  url: string;
  /** The link stops working then: the session's end. */
  expiresAt: Date;
};

/**
 * Mints the guest link of an appointment's call (a visitor's consultation),
 * valid until the session ends (`appointment.endsAt`). Stable signature: the
 * booking mails call it. `secret` is the app secret (deps.secret), `baseUrl`
 * the public address (publicBaseUrl(deps)).
 */
export async function guestCallLink(
  db: Db,
  secret: string,
  appointment: { id: number; endsAt: Date },
  opts: { baseUrl: string; now: Date },
): Promise<GuestLink> {
  const version = await repo.guestLinkVersion(db, appointment.id);
  const nowMs = opts.now.getTime();
  const endSeconds = Math.ceil(appointment.endsAt.getTime() / 1000);
  const { query, exp } = links.sign(secret, subjectOf(appointment.id, version), {
    now: nowMs,
    ttlSeconds: endSeconds - Math.floor(nowMs / 1000),
  });
  const path = `${guestCallPathOf(appointment.id)}?v=${version}&${query}`;
  return { path, url: `${opts.baseUrl.replace(/\/+$/, '')}${path}`, expiresAt: new Date(exp * 1000) };
}

/** Why a guest link does not open its call now (the guest page says each in words, with what to do). */
export type GuestRefusal = 'invalid' | 'revoked' | 'expired' | 'early' | 'cancelled';

export type GuestLinkCheck = { ok: true; version: number } | { ok: false; reason: GuestRefusal; opensAt?: Date };

/**
 * Checks a guest pass against its appointment as it is now. `invalid`: not a
 * link we made for this call (altered, or another call's); `revoked`: made
 * for a version since raised; `expired`: past the session's end; `early`:
 * more than 10 minutes before the start; `cancelled`: the session is off.
 */
export async function checkGuestPass(
  db: Db,
  secret: string,
  pass: GuestPass,
  appointment: { id: number; starts_at: Date; status: string },
  now: Date,
): Promise<GuestLinkCheck> {
  if (!/^\d{1,9}$/.test(pass.v) || pass.appointmentId !== appointment.id) return { ok: false, reason: 'invalid' };
  const version = Number(pass.v);
  const signed = links.check(secret, subjectOf(appointment.id, version), { exp: pass.exp, sig: pass.sig }, now.getTime());
  if (!signed.ok) {
    // An expired link is only told apart once its signature is known to be ours.
    if (signed.reason !== 'expired') return { ok: false, reason: 'invalid' };
    const stillSigned = links.check(secret, subjectOf(appointment.id, version), { exp: pass.exp, sig: pass.sig }, Number(pass.exp) * 1000);
    return { ok: false, reason: stillSigned.ok ? 'expired' : 'invalid' };
  }
  const current = await repo.findGuestLinkVersion(db, appointment.id);
  if (current === undefined || version > current) return { ok: false, reason: 'invalid' };
  if (version < current) return { ok: false, reason: 'revoked' };
  if (appointment.status === 'cancelled' || appointment.status === 'no_show') return { ok: false, reason: 'cancelled' };
  const opensAt = new Date(appointment.starts_at.getTime() - CALL_OPENS_BEFORE_MS);
  if (now < opensAt) return { ok: false, reason: 'early', opensAt };
  return { ok: true, version };
}

/** A guest pass as one string, for the WebSocket's connection parameters: `<appointment>.<version>.<exp>.<sig>`. */
export const guestPassText = (pass: GuestPass) => `${pass.appointmentId}.${pass.v}.${pass.exp}.${pass.sig}`;

/**
 * Until when a socket opened with this guest pass may stay without a session:
 * the link's end plus the call's grace, when the pass is signed by us (no
 * database read: each call through the socket checks the pass in full); null
 * for anything else, which is then an ordinary socket without a session.
 */
export function guestSocketUntil(secret: string, text: unknown, now: number): Date | null {
  if (typeof text !== 'string' || text.length > 120) return null;
  const m = /^(\d{1,9})\.(\d{1,9})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(text);
  if (!m) return null;
  const [, id, v, exp, sig] = m as unknown as [string, string, string, string, string];
  const checked = links.check(secret, subjectOf(Number(id), Number(v)), { exp, sig }, now);
  if (!checked.ok) return null;
  return new Date(Number(exp) * 1000 + CALL_GRACE_AFTER_MS);
}
