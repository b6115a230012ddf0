import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { deleteSubscriptionsOfFamilies } from '../push/repo.js';
import type { Db, Tx } from '../db/index.js';
import { hashToken } from './session-user.js';

/** The NOTIFY channel that tells every instance a user's sessions changed (live-sessions.ts listens). */
export const SESSIONS_CHANNEL = 'poshan_sessions';

/** What travels through NOTIFY: a user id, nothing secret. */
export type SessionsChanged = { userId: number };

/** The session caches of the running instances in this process (one, except in tests that start several); live-sessions.ts adds its own. */
export const sessionHoldersInProcess = new Set<{ holdUser(userId: number): void }>();

/**
 * Announces that these users' sessions changed. Call it in the transaction
 * that changed them: NOTIFY is delivered only when it commits. The caches in
 * this process forget the users at once as well, and cache nothing of theirs
 * until their own notification comes back: a request read between now and
 * the commit still sees the old rows, and must not keep a revoked session
 * cached after the caller has been told it ended.
 */
export async function notifySessionsChanged(db: Db, userIds: Iterable<number>): Promise<void> {
  for (const userId of new Set(userIds)) {
    for (const holder of sessionHoldersInProcess) holder.holdUser(userId);
    const payload: SessionsChanged = { userId };
    await sql`select pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify(payload)})`.execute(db);
  }
}

export const SESSION_TTL_MS = 60 * 60 * 1000; // 1 hour
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000; // 30 days
/**
 * A sign-in ends this long after it began, however often it is refreshed:
 * every token of a family (the chain of refreshes) expires by then, and the
 * person must sign in again with their password.
 */
export const ABSOLUTE_SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000; // 30 days

/** The sign-in a refreshed session continues: its family, and when that sign-in began. */
export type SessionFamily = { id: string; startedAt: Date };

/** 256 bits of randomness, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

export type IssuedSession = { sessionId: number; token: string; refreshToken: string; expiresAt: Date; refreshExpiresAt: Date };

/** A User-Agent as stored: enough to name the browser, never unbounded. */
export const storedUserAgent = (userAgent: string | null | undefined) => userAgent?.trim().slice(0, 400) || null;

/**
 * Starts a session: a new sign-in, or (on refresh) the next link of a family,
 * which keeps the family's start so that refreshing never outlives
 * ABSOLUTE_SESSION_LIFETIME_MS. Only hashes are stored, with the browser
 * that signed in.
 */
export async function issueSession(
  db: Db,
  userId: number,
  family: SessionFamily | undefined = undefined,
  now = new Date(),
  userAgent: string | null = null,
): Promise<IssuedSession> {
  const token = newToken();
  const refreshToken = newToken();
  const startedAt = family?.startedAt ?? now;
  const endOfSignIn = startedAt.getTime() + ABSOLUTE_SESSION_LIFETIME_MS;
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_TTL_MS, endOfSignIn));
  const refreshExpiresAt = new Date(Math.min(now.getTime() + REFRESH_TTL_MS, endOfSignIn));
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      family_id: family?.id ?? randomUUID(),
      family_started_at: startedAt,
      token_hash: hashToken(token),
      refresh_hash: hashToken(refreshToken),
      expires_at: expiresAt,
      refresh_expires_at: refreshExpiresAt,
      user_agent: storedUserAgent(userAgent),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { sessionId: row.id, token, refreshToken, expiresAt, refreshExpiresAt };
}

/**
 * After a refresh the old session token keeps working this long, so requests
 * already in flight with it are not refused; then only the new one works.
 */
export const ROTATED_TOKEN_OVERLAP_MS = 30_000;

/**
 * Claims a refresh token for rotation: marks its row rotated, only if it is
 * live. A single UPDATE, so of two concurrent claims exactly one gets the row
 * (Postgres re-checks the WHERE after the first commits); the other gets
 * nothing and sees the token as already rotated. Call it inside a
 * transaction after holdSessionsOfUser(trx, userId), so a
 * revocation of the same user cannot miss the session this refresh inserts.
 */
export async function claimRefreshToken(db: Db, refreshToken: string, now = new Date()) {
  const overlapEnds = new Date(now.getTime() + ROTATED_TOKEN_OVERLAP_MS);
  const claimed = await db
    .updateTable('sessions')
    .set({ rotated_at: now, expires_at: sql<Date>`least(expires_at, ${overlapEnds})` })
    .where('refresh_hash', '=', hashToken(refreshToken))
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', now)
    .returning(['id', 'user_id', 'family_id', 'family_started_at', 'user_agent'])
    .executeTakeFirst();
  // The old session token now expires sooner: cached copies must learn it.
  if (claimed) await notifySessionsChanged(db, [claimed.user_id]);
  return claimed;
}

export function findSessionByRefreshToken(db: Db, refreshToken: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'family_id', 'rotated_at', 'revoked_at', 'refresh_expires_at'])
    .where('refresh_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
}

export function familyOfSession(db: Db, sessionId: number) {
  return db.selectFrom('sessions').select(['family_id', 'user_id']).where('id', '=', sessionId).executeTakeFirst();
}

/**
 * Revoking and renewing a user's sessions wait for each other on the user's
 * row. A revocation is one UPDATE of the rows its snapshot sees; a refresh
 * claims a row and inserts the family's next session in its own transaction.
 * Without a common lock the UPDATE waits for the claimed row, revokes it, and
 * never sees the inserted one: the renewed session outlives a password change
 * or a device sign-out. With it, a revocation starts after every renewal in
 * flight has committed (READ COMMITTED: its UPDATE then sees their rows), and
 * a renewal that waited claims nothing that was revoked. One mode for both
 * (no shared mode that a renewal revoking on reuse would have to upgrade, and
 * deadlock); `no key update` leaves foreign-key checks of other tables free.
 * A row lock of the transaction, so it works the same on PGlite.
 */
export async function holdSessionsOfUser(trx: Tx, userId: number): Promise<void> {
  await sql`select id from users where id = ${userId} for no key update`.execute(trx);
}

/** Runs `work` in the caller's transaction, or in a new one: a row lock lives only as long as its transaction. */
function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Tx) : db.transaction().execute(work);
}

/**
 * The one place sessions are revoked. Every path (sign-out, refresh-token
 * reuse, password reset or change, deactivation, signing out a device) comes
 * through here, so each one waits for the user's refreshes in flight (see
 * holdSessionsOfUser) and tells every instance (NOTIFY, delivered when the
 * transaction commits) to drop its cached copy and close the sockets.
 */
function revokeSessions(db: Db, userId: number, which: { familyId: string } | { exceptFamilyId?: string }, now: Date) {
  return inTransaction(db, async (trx) => {
    await holdSessionsOfUser(trx, userId);
    let update = trx.updateTable('sessions').set({ revoked_at: now }).where('revoked_at', 'is', null).where('user_id', '=', userId);
    if ('familyId' in which) update = update.where('family_id', '=', which.familyId);
    else if (which.exceptFamilyId) update = update.where('family_id', '!=', which.exceptFamilyId);
    const revoked = await update.returning(['id', 'user_id', 'family_id']).execute();
    // A signed-out device gets no more push notifications (its browser's subscription goes with the sign-in).
    await deleteSubscriptionsOfFamilies(trx, userId, [...new Set(revoked.map((r) => r.family_id))]);
    // A user is announced even with nothing to revoke: deactivation must still reach their sockets.
    await notifySessionsChanged(trx, [userId]);
    return revoked;
  });
}

/**
 * A user's sign-ins that can still be renewed, one row per family: when it
 * started, when it was last active, and the browser. Bounded: a person has
 * a handful of devices; the newest 50 are listed.
 *
 * "Last active" is the newest row's `created_at`: every renewal inserts the
 * family's next row, and a device renews only when it makes a request after
 * its session token (one hour) expired. So the time is recorded by the
 * renewal itself, with no write per request, and pruning keeps the newest
 * rows, so it never moves back.
 */
export function listLiveFamilies(db: Db, userId: number, now = new Date()) {
  return db
    .selectFrom('sessions')
    .select((eb) => [
      'family_id',
      // The family's start: renewals deleted by pruning never move it.
      eb.fn.min('family_started_at').as('signed_in_at'),
      eb.fn.max('created_at').as('last_active_at'),
      eb.fn.max('user_agent').as('user_agent'),
      eb.fn.max('id').as('latest_id'),
    ])
    .where('user_id', '=', userId)
    .groupBy('family_id')
    .having(
      (eb) => eb.fn.count<number>('id').filterWhere((w) => w.and([w('revoked_at', 'is', null), w('refresh_expires_at', '>', now)])),
      '>',
      0,
    )
    .orderBy('last_active_at', 'desc')
    .limit(50)
    .execute();
}

/** The family of one of the user's own sessions, or nothing (another user's family id finds nothing). */
export function findFamilyOfUser(db: Db, userId: number, familyId: string) {
  return db.selectFrom('sessions').select('family_id').where('user_id', '=', userId).where('family_id', '=', familyId).executeTakeFirst();
}

/** Every sign-in of a user except one (the one making the change: a password change). */
export function revokeOtherFamilies(db: Db, userId: number, keepFamilyId: string, now = new Date()) {
  return revokeSessions(db, userId, { exceptFamilyId: keepFamilyId }, now);
}

/** Ends every session of one of the user's sign-ins (the family shares one id across rotations). */
export function revokeFamily(db: Db, userId: number, familyId: string, now = new Date()) {
  return revokeSessions(db, userId, { familyId }, now);
}

/** Ends every sign-in of a user (password reset or change, deactivation). */
export function revokeAllSessionsOfUser(db: Db, userId: number, now = new Date()) {
  return revokeSessions(db, userId, {}, now);
}

/**
 * Renewed (rotated) rows a sign-in keeps: presenting one of their refresh
 * tokens again is the sign of a stolen copy and ends the sign-in. Older
 * renewed rows whose session token has expired are deleted, so a sign-in
 * holds a bounded number of rows however often it is renewed.
 */
export const RENEWED_ROWS_KEPT = 10;

export async function pruneRenewedSessions(db: Db, familyId: string, now = new Date()) {
  await db
    .deleteFrom('sessions')
    .where('family_id', '=', familyId)
    .where('rotated_at', 'is not', null)
    .where('expires_at', '<=', now)
    .where('id', '<', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('family_id', '=', familyId)
        .where('rotated_at', 'is not', null)
        .orderBy('id', 'desc')
        .offset(RENEWED_ROWS_KEPT - 1)
        .limit(1),
    )
    .execute();
}

/** Rows whose refresh token has long expired can no longer do anything. */
export function deleteExpiredSessions(db: Db, now = new Date()) {
  return db
    .deleteFrom('sessions')
    .where('refresh_expires_at', '<', new Date(now.getTime() - 24 * 60 * 60 * 1000))
    .execute();
}

/** The session of a token hash with its user: not revoked, not expired, the user active. */
export function findLiveSessionWithUser(db: Db, tokenHash: string, now = new Date()) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as session_id', 's.expires_at', 'u.id', 'u.role', 'u.email', 'u.first_name', 'u.last_name'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.is_active', '=', true)
    .executeTakeFirst();
}
