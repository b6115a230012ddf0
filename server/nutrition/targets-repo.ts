import type { Db } from '../db/index.js';

/** A client's targets row (one per client), or undefined when no dietitian has set any. */
export function findTargets(db: Db, clientId: number) {
  return db
    .selectFrom('nutrition_targets')
    .select(['client_id', 'targets', 'basis', 'show_numbers', 'set_by', 'updated_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export type TargetsRow = NonNullable<Awaited<ReturnType<typeof findTargets>>>;

/** Writes a client's targets (the whole set: nutrients left out no longer have a target). */
export function upsertTargets(
  trx: Db,
  row: { clientId: number; targets: Record<string, number>; basis: unknown; showNumbers: boolean; setBy: number; at: Date },
) {
  const values = {
    targets: JSON.stringify(row.targets),
    basis: JSON.stringify(row.basis),
    show_numbers: row.showNumbers,
    set_by: row.setBy,
    updated_at: row.at,
  };
  return trx
    .insertInto('nutrition_targets')
    .values({ client_id: row.clientId, ...values })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
    .returning(['client_id', 'targets', 'basis', 'show_numbers', 'set_by', 'updated_at'])
    .executeTakeFirstOrThrow();
}

/**
 * What the record knows of a client for a suggestion: height and weight on the account, the
 * latest weight logged, the age and gender given at the consultation that became this client
 * (with when, to age it), and the activity level of the intake questionnaire.
 */
export async function personFacts(db: Db, clientId: number) {
  const [account, weight, consultation, intake] = await Promise.all([
    db.selectFrom('users').select(['height_m', 'weight_kg']).where('id', '=', clientId).executeTakeFirst(),
    db
      .selectFrom('weights')
      .select(['weight_kg', 'date'])
      .where('client_id', '=', clientId)
      .orderBy('date', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('consultations')
      .select(['age', 'gender', 'created_at'])
      .where('client_id', '=', clientId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom('intakes').select('answers').where('client_id', '=', clientId).executeTakeFirst(),
  ]);
  return { account, weight, consultation, intake };
}
