import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db, Tx } from '../db/index.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { notFound } from '../errors.js';
import { setCurrentWeight } from '../users/repo.js';
import * as repo from './repo.js';
import type { AddWeightInput } from './schema.js';

/** Records a weight and keeps the client's current weight equal to the latest entry. */
export async function addWeight(db: Kysely<Database>, actor: SessionUser, input: AddWeightInput) {
  const clientId = await clientToActFor(db, actor, input.cId, 'cId');
  return db.transaction().execute((trx) => recordWeight(trx, clientId, input.weight, input.date));
}

/**
 * The one way a weight is written (Update Weight, check-ins): one entry per
 * day, and the current weight follows the latest entry. Run it in the caller's transaction.
 */
export async function recordWeight(trx: Tx, clientId: number, weightKg: number, date: string) {
  const entry = await repo.upsertWeight(trx, clientId, weightKg, date);
  const latest = await repo.latestWeight(trx, clientId);
  if (latest) await setCurrentWeight(trx, clientId, latest.weight);
  return { ...entry, cId: clientId };
}

export async function listWeights(db: Db, actor: SessionUser, userId: number | undefined) {
  const clientId = await clientToActFor(db, actor, userId, 'id');
  return repo.listWeights(db, clientId);
}

export async function removeWeight(db: Kysely<Database>, actor: SessionUser, weightId: number) {
  return db.transaction().execute(async (trx) => {
    // Another client's entry is reported exactly like a missing one: no existence leak.
    const removed = await repo.deleteWeight(trx, weightId, actor.role === ROLE.admin ? null : actor.id);
    if (!removed) throw notFound('That weight entry does not exist.');
    const latest = await repo.latestWeight(trx, removed.client_id);
    await setCurrentWeight(trx, removed.client_id, latest?.weight ?? null);
    return { id: removed.id };
  });
}
