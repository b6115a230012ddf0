import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/** The auth_keys table: the key ring for client-side password encryption (keys.ts decides when to rotate). */

export function findNewestUnretiredKey(db: Db) {
  return db
    .selectFrom('auth_keys')
    .select(['kid', 'public_jwk', 'created_at'])
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A key's sealed private half, and when it was retired (null: current). */
export function findSealedKey(db: Db, kid: string) {
  return db.selectFrom('auth_keys').select(['private_key_enc', 'retired_at']).where('kid', '=', kid).executeTakeFirst();
}

/** Serialises rotations across instances until the transaction ends. */
export async function lockKeyRing(trx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('poshan:auth_keys'))`.execute(trx);
}

/** Retires every current key, deletes those retired before `deleteRetiredBefore`, and stores the new current one. */
export async function replaceCurrentKey(
  trx: Tx,
  key: { kid: string; publicJwk: JsonWebKey; sealedPrivateKey: string; now: Date; deleteRetiredBefore: Date },
) {
  await trx.updateTable('auth_keys').set({ retired_at: key.now }).where('retired_at', 'is', null).execute();
  await trx.deleteFrom('auth_keys').where('retired_at', '<', key.deleteRetiredBefore).execute();
  return trx
    .insertInto('auth_keys')
    .values({ kid: key.kid, public_jwk: JSON.stringify(key.publicJwk), private_key_enc: key.sealedPrivateKey, created_at: key.now })
    .returning(['kid', 'public_jwk', 'created_at'])
    .executeTakeFirstOrThrow();
}
