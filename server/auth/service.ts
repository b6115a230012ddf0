import type { AppDeps } from '../deps.js';
import type { Db } from '../db/index.js';
import { AppError, unauthorized } from '../errors.js';
import { publicBaseUrl } from '../http/public-url.js';
import { recordAudit } from '../audit/record.js';
import { ROLE } from './roles.js';
import { passwordChangedMail, passwordResetMail } from '../mail/templates.js';
import type { ChangePasswordInput } from '../users/schema.js';
import { SAME_PASSWORD } from '../users/schema.js';
import { formatMoment } from '../format.js';
import { deviceName } from './device-name.js';
import type { RequestMeta } from '../http/request-meta.js';
import { plainPassword } from './keys.js';
import { issueDeviceToken, verifyDeviceToken } from './known-device.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';
import { type KindedLimit, bucket, clearAttempts, takeSlot } from './rate-limit.js';
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
  dietitianAtClientDoor: 'This sign-in is for clients. Dietitians sign in to the console at /admin.',
  clientAtConsoleDoor: 'This sign-in is for dietitians. Clients sign in at /login.',
  wrongCurrentPassword: 'Your current password is not correct.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  deviceSignedOut: 'That device has been signed out.',
  deviceUnknown: 'That device is not signed in to your account.',
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
 * Sign-in. One atomic step takes a slot in the per-IP limit and in the
 * account's limit (or, from a known device, that device's own limit:
 * decision 026) before the password is looked at, so concurrent or batched
 * attempts can never evaluate more passwords than the limits allow. A
 * success frees the slots it counted against the account or device; a
 * failure keeps them. The password is checked even for unknown emails
 * (against a dummy hash) and for the wrong role, so neither timing nor
 * message reveals which emails have accounts.
 */
export async function signIn(deps: AppDeps, meta: RequestMeta, input: SignInInput, now = new Date()) {
  const { db } = deps;
  const limits = deps.config.rateLimits;
  const user = await repo.findUserByEmail(db, input.email);
  const deviceId = user && input.deviceToken ? verifyDeviceToken(deps.secret, user, input.deviceToken, now) : null;
  const ownLimit: KindedLimit = deviceId
    ? { kind: 'signin-device', bucket: bucket.signInDevice(deviceId), ...limits.signInDevice }
    : { kind: 'signin-account', bucket: bucket.signInAccount(input.email), ...limits.signInAccount };
  await takeSlot(db, 'sign-in attempts', [{ kind: 'signin-ip', bucket: bucket.signInIp(meta.ip), ...limits.signInIp }, ownLimit], now);

  const password = await plainPassword(deps, input.password, now);
  const matches = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()), { ip: meta.ip, account: input.email });
  if (!user?.password_hash || !matches) throw unauthorized(MESSAGES.wrongCredentials);
  // Only someone who knows the password learns which door is theirs.
  if (user.role !== input.role)
    throw unauthorized(user.role === ROLE.admin ? MESSAGES.dietitianAtClientDoor : MESSAGES.clientAtConsoleDoor);
  // Only someone who knows the password learns that the account was deactivated.
  if (!user.is_active) throw unauthorized(MESSAGES.inactive);

  await clearAttempts(db, ownLimit.bucket);
  await pruneSessionsOccasionally(db, now);
  const session = await sessions.issueSession(db, user.id, undefined, now, meta.userAgent);
  const deviceToken = issueDeviceToken(deps.secret, { id: user.id, password_hash: user.password_hash }, now);
  return { message: `Welcome back, ${user.first_name}!`, data: { ...toSessionData(user, session), deviceToken } };
}

/**
 * Rotates both tokens within the same family. Presenting a refresh token that
 * was already rotated means two parties hold it (a copy was stolen, or two
 * tabs refreshed at once): the whole family is revoked and both must sign in
 * again. Two concurrent refreshes with one token therefore end the same way:
 * one wins the claim, the other is treated as reuse and revokes the family,
 * including the winner's new session. Clients must refresh single-flight.
 * Renewals are limited per sign-in and per IP (a browser renews about once
 * an hour), and each renewal deletes the family's rows too old to matter.
 */
export async function refresh(deps: AppDeps, meta: RequestMeta, input: { refreshToken: string }, now = new Date()) {
  const { refreshToken } = input;
  const limits = deps.config.rateLimits;
  const known = await sessions.findSessionByRefreshToken(deps.db, refreshToken);
  const renewalLimits: KindedLimit[] = [{ kind: 'refresh-ip', bucket: bucket.refreshIp(meta.ip), ...limits.refreshIp }];
  if (known) renewalLimits.push({ kind: 'refresh-sign-in', bucket: bucket.refreshSignIn(known.family_id), ...limits.refreshSignIn });
  await takeSlot(deps.db, 'session renewals', renewalLimits, now);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const presented = await sessions.findSessionByRefreshToken(trx, refreshToken);
    if (!presented) return { kind: 'expired' as const };
    // Waits for a revocation of this user in flight; the claim below then sees what it revoked.
    await sessions.holdSessionsOfUser(trx, presented.user_id);
    const claimed = await sessions.claimRefreshToken(trx, refreshToken, now);
    if (claimed) {
      const user = await repo.findActiveUserById(trx, claimed.user_id);
      if (!user) {
        await sessions.revokeFamily(trx, claimed.user_id, claimed.family_id, now);
        return { kind: 'expired' as const };
      }
      const family = { id: claimed.family_id, startedAt: claimed.family_started_at };
      const session = await sessions.issueSession(trx, user.id, family, now, claimed.user_agent);
      await sessions.pruneRenewedSessions(trx, claimed.family_id, now);
      return { kind: 'renewed' as const, data: toSessionData(user, session) };
    }
    const previous = await sessions.findSessionByRefreshToken(trx, refreshToken);
    if (previous?.rotated_at && previous.refresh_expires_at > now) {
      await sessions.revokeFamily(trx, previous.user_id, previous.family_id, now);
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
  const families = new Map<string, number>();
  if (actor) {
    const current = await sessions.familyOfSession(db, actor.sessionId);
    if (current) families.set(current.family_id, current.user_id);
  }
  if (refreshToken) {
    const byRefresh = await sessions.findSessionByRefreshToken(db, refreshToken);
    if (byRefresh && !byRefresh.revoked_at) families.set(byRefresh.family_id, byRefresh.user_id);
  }
  if (families.size === 0) throw unauthorized(MESSAGES.expired);
  for (const [family, userId] of families) await sessions.revokeFamily(db, userId, family, now);
  return { message: MESSAGES.signedOut };
}

/**
 * Always the same answer, whether or not the email has an account. Limited
 * per IP and per email so the form cannot be used to flood an inbox.
 */
export async function forgotPassword(deps: AppDeps, meta: RequestMeta, email: string, now = new Date()) {
  const { db } = deps;
  const limits = deps.config.rateLimits;
  await takeSlot(
    db,
    'password reset requests',
    [
      { kind: 'forgot-ip', bucket: bucket.forgotIp(meta.ip), ...limits.passwordResetIp },
      { kind: 'forgot-email', bucket: bucket.forgotEmail(email), ...limits.passwordResetEmail },
    ],
    now,
  );

  const user = await repo.findUserByEmail(db, email);
  if (user?.is_active) {
    const token = sessions.newToken();
    await repo.insertPasswordReset(db, user.id, token, new Date(now.getTime() + RESET_TTL_MS));
    const link = `${publicBaseUrl(deps)}/reset-password?token=${encodeURIComponent(token)}`;
    await recordAudit(db, user, {
      action: 'auth.password_reset_requested',
      entity: 'user',
      entityId: user.id,
      summary: `A password reset link was mailed to ${user.email}`,
      details: { ip: meta.ip },
    });
    await deps.mailer.queue(passwordResetMail({ to: user.email, firstName: user.first_name, link, validMinutes: RESET_TTL_MS / 60_000 }));
  }
  return { message: MESSAGES.forgotPassword };
}

export async function resetPassword(deps: AppDeps, meta: RequestMeta, input: ResetPasswordInput, now = new Date()) {
  const { db } = deps;
  const invalid = () => new AppError('BAD_REQUEST', MESSAGES.resetInvalid, { fieldErrors: { token: [MESSAGES.resetInvalid] } });
  // Checked before hashing, so invalid tokens cost no scrypt work.
  const pending = await repo.findUsablePasswordReset(db, input.token, now);
  if (!pending) throw invalid();
  const passwordHash = await hashPassword(input.password, { ip: meta.ip, account: pending.email });
  const changed = await db.transaction().execute(async (trx) => {
    const claimed = await repo.consumePasswordReset(trx, input.token, now);
    if (!claimed) return false;
    await repo.setPasswordHash(trx, claimed.user_id, passwordHash, now);
    await recordAudit(
      trx,
      { id: claimed.user_id, email: pending.email },
      {
        action: 'auth.password_reset',
        entity: 'user',
        entityId: claimed.user_id,
        summary: `${pending.email} set a new password from a mailed link`,
      },
    );
    await repo.usePendingPasswordResets(trx, claimed.user_id, now);
    await sessions.revokeAllSessionsOfUser(trx, claimed.user_id, now);
    return true;
  });
  if (!changed) throw invalid();
  // The owner proved control of the mailbox: earlier failures no longer lock them out.
  await clearAttempts(db, bucket.signInAccount(pending.email));
  return { message: MESSAGES.resetDone };
}

const lastSessionPrune = new WeakMap<object, number>();
async function pruneSessionsOccasionally(db: Db, now: Date) {
  if (now.getTime() - (lastSessionPrune.get(db) ?? 0) < SESSION_PRUNE_EVERY_MS) return;
  lastSessionPrune.set(db, now.getTime());
  await sessions.deleteExpiredSessions(db, now);
}

/**
 * Changes the password of the signed-in user, who proves it with the current
 * one (rate-limited like sign-in). Every other sign-in ends; this one stays.
 * A mail tells the owner, in case it was not them.
 */
export async function changePassword(deps: AppDeps, actor: SessionUser, meta: RequestMeta, input: ChangePasswordInput, now = new Date()) {
  const { db } = deps;
  const accountLimit: KindedLimit = {
    kind: 'signin-account',
    bucket: bucket.signInAccount(actor.email),
    ...deps.config.rateLimits.signInAccount,
  };
  await takeSlot(db, 'password attempts', [accountLimit], now);
  const current = await plainPassword(deps, input.currentPassword, now);
  const user = await repo.findUserByEmail(db, actor.email);
  const requester = { ip: meta.ip, account: actor.email };
  if (!user?.password_hash || !(await verifyPassword(current, user.password_hash, requester))) {
    throw new AppError('BAD_REQUEST', MESSAGES.wrongCurrentPassword, { fieldErrors: { currentPassword: [MESSAGES.wrongCurrentPassword] } });
  }
  if (current === input.newPassword) {
    throw new AppError('BAD_REQUEST', SAME_PASSWORD, { fieldErrors: { newPassword: [SAME_PASSWORD] } });
  }
  const passwordHash = await hashPassword(input.newPassword, requester);
  const family = await sessions.familyOfSession(db, actor.sessionId);
  await db.transaction().execute(async (trx) => {
    await repo.setPasswordHash(trx, user.id, passwordHash, now);
    await repo.usePendingPasswordResets(trx, user.id, now);
    if (family) await sessions.revokeOtherFamilies(trx, user.id, family.family_id, now);
    else await sessions.revokeAllSessionsOfUser(trx, user.id, now);
  });
  await clearAttempts(db, accountLimit.bucket);
  await deps.mailer.queue(
    passwordChangedMail({
      to: user.email,
      firstName: user.first_name,
      when: formatMoment(now),
      device: deviceName(meta.userAgent),
      forgotLink: `${publicBaseUrl(deps)}/login`,
    }),
  );
  return { message: MESSAGES.passwordChanged };
}

/** The user's signed-in devices (sign-ins that can still be renewed), this one marked. */
export async function listDevices(db: Db, actor: SessionUser, now = new Date()) {
  const [families, current] = await Promise.all([
    sessions.listLiveFamilies(db, actor.id, now),
    sessions.familyOfSession(db, actor.sessionId),
  ]);
  return families.map((f) => ({
    id: f.family_id,
    browser: deviceName(f.user_agent),
    signedInAt: new Date(f.signed_in_at),
    lastActiveAt: new Date(f.last_active_at),
    current: f.family_id === current?.family_id,
  }));
}

/** Signs one of the user's own devices out (the current one too, if named). */
export async function signOutDevice(db: Db, actor: SessionUser, familyId: string, now = new Date()) {
  const family = await sessions.findFamilyOfUser(db, actor.id, familyId);
  if (!family) throw new AppError('NOT_FOUND', MESSAGES.deviceUnknown);
  await sessions.revokeFamily(db, actor.id, family.family_id, now);
  return { message: MESSAGES.deviceSignedOut };
}
