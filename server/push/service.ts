import { createPublicKey } from 'node:crypto';
import type { SessionUser } from '../auth/session.js';
import { familyOfSession } from '../auth/sessions-repo.js';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/index.js';
import { badRequest, unauthorized } from '../errors.js';
import type { EndpointPolicy } from './endpoint.js';
import { endpointProblem } from './endpoint.js';
import * as repo from './repo.js';
import type { SubscribeInput } from './schema.js';

/** Whether the 65 bytes are an uncompressed point on P-256 (a browser's p256dh key). */
function isP256Point(p256dh: string): boolean {
  const raw = Buffer.from(p256dh, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

/** A browser may register again and again (a new endpoint each time): the newest this many of one sign-in are kept. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN = 10;
/** And of one person, over all their sign-ins. */
export const MAX_PUSH_SUBSCRIPTIONS_PER_PERSON = 20;

/**
 * Registers this browser for push, tied to the sign-in making the call: the
 * device's sign-out (here or from the devices list) removes it. The endpoint
 * must belong to a push service (endpoint.ts); the same endpoint again from
 * the same person replaces their earlier registration, never another
 * person's (repo.saveSubscription). Beyond the caps above, the oldest go.
 */
export async function subscribe(db: Kysely<Database>, policy: EndpointPolicy, actor: SessionUser, input: SubscribeInput) {
  const problem = endpointProblem(input.endpoint, policy);
  if (problem) throw badRequest(`This push subscription cannot be used. ${problem}`, { endpoint: [problem] });
  const p256dh = input.keys.p256dh.replace(/=+$/, '');
  if (!isP256Point(p256dh)) {
    const why = 'keys.p256dh must be the browser’s P-256 public key (65 bytes, uncompressed)';
    throw badRequest(why, { 'keys.p256dh': [why] });
  }
  const family = await familyOfSession(db, actor.sessionId);
  if (!family) throw unauthorized();
  const row = await db
    .transaction()
    .execute((trx) =>
      repo.saveSubscription(
        trx,
        { user_id: actor.id, family_id: family.family_id, endpoint: input.endpoint, p256dh, auth: input.keys.auth.replace(/=+$/, '') },
        { perSignIn: MAX_PUSH_SUBSCRIPTIONS_PER_SIGN_IN, perPerson: MAX_PUSH_SUBSCRIPTIONS_PER_PERSON },
      ),
    );
  return { endpoint: input.endpoint, subscribedAt: row.created_at };
}

/** Forgets the person's own registration of an endpoint (the browser unsubscribed); removed: false when they had none. */
export async function unsubscribe(db: Db, actor: SessionUser, input: { endpoint: string }) {
  const result = await repo.deleteOwnSubscription(db, actor.id, input.endpoint);
  return { removed: Number(result.numDeletedRows) > 0 };
}
