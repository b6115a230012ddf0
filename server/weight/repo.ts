import type { Db } from '../db/index.js';
import { WEIGHT_HISTORY_LIMIT } from './schema.js';

const columns = ['id', 'weight_kg as weight', 'date'] as const;

/** One entry per client and day: a second entry for the same day replaces the first. */
export function upsertWeight(db: Db, clientId: number, weightKg: number, date: string) {
  return db
    .insertInto('weights')
    .values({ client_id: clientId, weight_kg: weightKg, date })
    .onConflict((oc) => oc.columns(['client_id', 'date']).doUpdateSet({ weight_kg: weightKg }))
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export function listWeights(db: Db, clientId: number) {
  return db
    .selectFrom('weights')
    .select(columns)
    .where('client_id', '=', clientId)
    .orderBy('date', 'desc')
    .limit(WEIGHT_HISTORY_LIMIT)
    .execute();
}

export function latestWeight(db: Db, clientId: number) {
  return db.selectFrom('weights').select(columns).where('client_id', '=', clientId).orderBy('date', 'desc').limit(1).executeTakeFirst();
}

export function deleteWeight(db: Db, weightId: number, clientId: number | null) {
  let q = db.deleteFrom('weights').where('id', '=', weightId);
  if (clientId !== null) q = q.where('client_id', '=', clientId);
  return q.returning(['id', 'client_id']).executeTakeFirst();
}
