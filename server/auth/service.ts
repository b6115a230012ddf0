import type { AppDeps } from '../deps.js';
import type { Db } from '../db/index.js';
import { AppError, unauthorized } from '../errors.js';
import { passwordResetMail } from '../mail/templates.js';
import type { RequestMeta } from '../trpc/context.js';
import { plainPassword } from './keys.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';
import {
  FORGOT_PASSWORD_EMAIL,
  FORGOT_PASSWORD_IP,
  SIGN_IN_ACCOUNT_FAILURES,
  SIGN_IN_IP_ATTEMPTS,
  bucket,
  clearAttempts,
  enforceLimits,
  recordAttempt,
} from './rate-limit.js';
import * as repo from './repo.js';
import type { AuthUser, ResetPasswordInput, SessionData, SignInInput } from './schema.js';
import { type SessionUser, fullNameOf } from './session.js';
import * as sessions from './sessions-repo.js';

export const MESSAGES = {
  wrongCredentials: 'Incorrect email or password.',
  inactive: 'This account is no longer active. Please contact us to restore it.',
  expired: 'Your session has expired. Please sign in again.',
  refreshReused:
    'This sign-in was already renewed from another tab or device, so we signed it out everywhere to keep your account safe. Please sign in again.',
  signedIn: 'You are signed in.',
  signedOut: 'You have been logged out successfully',
  refreshed: 'Your session has been renewed.',
  forgotPassword: 'If an account exists for that email, we have sent a link to reset the password.',
  resetDone: 'Your password has been changed. Please sign in with your new password.',
  resetInvalid: 'This password reset link is invalid, already used or expired. Please ask for a new one.',
} as const;

export const RESET_TTL_MS = 60 * 60 * 1000;
const SESSION_PRUNE_EVERY_MS = 60 * 60 * 1000;

type UserRow = { id: number; first_name: string; last_name: string; role: number; height_m: number | null; weight_kg: number | null };

const toAuthUser = (u: UserRow): AuthUser => ({ id: u.id, fullName: fullNameOf(u), role: u.role, height: u.height_m, weight: u.weight_kg });

const toSessionData = (u: UserRow, s: { token: string; refreshToken: string }): SessionData => ({
  token: s.token,
  refreshToken: s.refreshToken,
  ...toAuthUser(u),
});

/**
 * Sign-in: rate limits first (per IP on every attempt, per account on
 * failures), then the password is checked even for unknown emails (against a
 * dummy hash) and for the wrong role, so neither timing nor message reveals
 * which emails have accounts.
 */
export async function signIn(deps: AppDeps, meta: RequestMeta, input: SignInInput, now = new Date()) {
  const { db } = deps;
  const ipLimit = { bucket: bucket.signInIp(meta.ip), ...SIGN_IN_IP_ATTEMPTS };
  const accountLimit = { bucket: bucket.signInFailures(input.email), ...SIGN_IN_ACCOUNT_FAILURES };
  await enforceLimits(db, 'sign-in attempts', [ipLimit, accountLimit], now);
  await recordAttempt(db, [ipLimit.bucket], now);

  const password = await plainPassword(deps, input.password, now);
  const user = await repo.findUserByEmail(db, input.email);
  const matches = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user?.password_hash || !matches || user.role !== input.role) {
    await recordAttempt(db, [accountLimit.bucket], now);
    throw unauthorized(MESSAGES.wrongCredentials);
  }
  // Only someone who knows the password learns that the account was deactivated.
  if (!user.is_active) throw unauthorized(MESSAGES.inactive);

  await clearAttempts(db, accountLimit.bucket);
  await pruneSessionsOccasionally(db, now);
  const session = await sessions.issueSession(db, user.id, undefined, now);
  return { message: `Welcome back, ${user.first_name}!`, data: toSessionData(user, session) };
}

/**
 * Rotates both tokens within the same family. Presenting a refresh token that
 * was already rotated means two parties hold it (a copy was stolen, or two
 * tabs refreshed at once): the whole family is revoked and both must sign in
 * again. Two concurrent refreshes with one token therefore end the same way:
 * one wins the claim, the other is treated as reuse and revokes the family,
 * including the winner's new session. Clients must refresh single-flight.
 */
export async function refresh(deps: AppDeps, refreshToken: string, now = new Date()) {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const claimed = await sessions.claimRefreshToken(trx, refreshToken, now);
    if (claimed) {
      const user = await repo.findActiveUserById(trx, claimed.user_id);
      if (!user) {
        await sessions.revokeFamily(trx, claimed.family_id, now);
        return { kind: 'expired' as const };
      }
      const session = await sessions.issueSession(trx, user.id, claimed.family_id, now);
      return { kind: 'renewed' as const, data: toSessionData(user, session) };
    }
    const previous = await sessions.findSessionByRefreshToken(trx, refreshToken);
    if (previous?.rotated_at && previous.refresh_expires_at > now) {
      await sessions.revokeFamily(trx, previous.family_id, now);
      return { kind: 'reused' as const, userId: previous.user_id };
    }
    return { kind: 'expired' as const };
  });
  if (outcome.kind === 'reused') {
    deps.logger.warn('refresh token reused: session family revoked', { userId: outcome.userId });
    throw unauthorized(MESSAGES.refreshReused);
  }
  if (outcome.kind === 'expired') throw unauthorized(MESSAGES.expired);
  return { message: MESSAGES.refreshed, data: outcome.data };
}

export async function checkAuthorization(db: Db, actor: SessionUser) {
  const user = await repo.findActiveUserById(db, actor.id);
  if (!user) throw unauthorized(MESSAGES.expired);
  return { message: MESSAGES.signedIn, data: toAuthUser(user) };
}

/**
 * Ends the current sign-in (every token of its family). A client whose session
 * token has expired may send its refresh token instead.
 */
export async function signOut(db: Db, actor: SessionUser | null, refreshToken: string | undefined, now = new Date()) {
  const families = new Set<string>();
  if (actor) {
    const current = await sessions.familyOfSession(db, actor.sessionId);
    if (current) families.add(current.family_id);
  }
  if (refreshToken) {
    const byRefresh = await sessions.findSessionByRefreshToken(db, refreshToken);
    if (byRefresh && !byRefresh.revoked_at) families.add(byRefresh.family_id);
  }
  if (families.size === 0) throw unauthorized(MESSAGES.expired);
  for (const family of families) await sessions.revokeFamily(db, family, now);
  return { message: MESSAGES.signedOut };
}

/**
 * Always the same answer, whether or not the email has an account. Limited
 * per IP and per email so the form cannot be used to flood an inbox.
 */
export async function forgotPassword(deps: AppDeps, meta: RequestMeta, email: string, now = new Date()) {
  const { db } = deps;
  const limits = [
    { bucket: bucket.forgotIp(meta.ip), ...FORGOT_PASSWORD_IP },
    { bucket: bucket.forgotEmail(email), ...FORGOT_PASSWORD_EMAIL },
  ];
  await enforceLimits(db, 'password reset requests', limits, now);
  await recordAttempt(
    db,
    limits.map((l) => l.bucket),
    now,
  );

  const user = await repo.findUserByEmail(db, email);
  if (user?.is_active) {
    const token = sessions.newToken();
    await repo.insertPasswordReset(db, user.id, token, new Date(now.getTime() + RESET_TTL_MS));
    const link = `${publicBaseUrl(deps)}/reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.queue(passwordResetMail({ to: user.email, firstName: user.first_name, link, validMinutes: RESET_TTL_MS / 60_000 }));
  }
  return { message: MESSAGES.forgotPassword };
}

/**
 * Where reset links point: PUBLIC_URL, else this server's own address. Never
 * the request's Host header, which a caller controls (a forged Host would
 * mail the victim a link to the attacker's site carrying a real token).
 */
export function publicBaseUrl(deps: Pick<AppDeps, 'config'>): string {
  const { publicUrl, host, port } = deps.config;
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${shownHost}:${port}`;
}

export async function resetPassword(deps: AppDeps, input: ResetPasswordInput, now = new Date()) {
  const { db } = deps;
  const invalid = () => new AppError('BAD_REQUEST', MESSAGES.resetInvalid, { fieldErrors: { token: [MESSAGES.resetInvalid] } });
  // Checked before hashing, so invalid tokens cost no scrypt work.
  const pending = await repo.findUsablePasswordReset(db, input.token, now);
  if (!pending) throw invalid();
  const passwordHash = await hashPassword(input.password);
  const changed = await db.transaction().execute(async (trx) => {
    const claimed = await repo.consumePasswordReset(trx, input.token, now);
    if (!claimed) return false;
    await repo.setPasswordHash(trx, claimed.user_id, passwordHash, now);
    await repo.usePendingPasswordResets(trx, claimed.user_id, now);
    await sessions.revokeAllSessionsOfUser(trx, claimed.user_id, now);
    return true;
  });
  if (!changed) throw invalid();
  // The owner proved control of the mailbox: earlier failures no longer lock them out.
  await clearAttempts(db, bucket.signInFailures(pending.email));
  return { message: MESSAGES.resetDone };
}

const lastSessionPrune = new WeakMap<object, number>();
async function pruneSessionsOccasionally(db: Db, now: Date) {
  if (now.getTime() - (lastSessionPrune.get(db) ?? 0) < SESSION_PRUNE_EVERY_MS) return;
  lastSessionPrune.set(db, now.getTime());
  await sessions.deleteExpiredSessions(db, now);
}
