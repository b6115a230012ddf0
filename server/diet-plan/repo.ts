import type { Db } from '../db/index.js';

/** Newest first, along diet_plans_client_idx (client_id, from_date, id). */
export function listPlans(db: Db, clientId: number, page: { offset: number; limit: number }) {
  return db
    .selectFrom('diet_plans')
    .select(['id', 'client_id', 'from_date', 'to_date'])
    .where('client_id', '=', clientId)
    .orderBy('from_date', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

export async function countPlans(db: Db, clientId: number): Promise<number> {
  const row = await db
    .selectFrom('diet_plans')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  // int8 is parsed to a number on both backends; Number() keeps it so if a parser is missing.
  return Number(row.n);
}

export function insertPlan(
  db: Db,
  plan: { clientId: number; title: string; from: string; to: string; pdf: Uint8Array; createdBy: number | null },
) {
  return db
    .insertInto('diet_plans')
    .values({
      client_id: plan.clientId,
      title: plan.title,
      from_date: plan.from,
      to_date: plan.to,
      pdf_data: plan.pdf,
      pdf_bytes: plan.pdf.byteLength,
      created_by: plan.createdBy,
    })
    .returning(['id', 'client_id', 'title', 'from_date', 'to_date', 'pdf_bytes'])
    .executeTakeFirstOrThrow();
}

export function findPlanOwner(db: Db, planId: number) {
  return db.selectFrom('diet_plans').select(['id', 'client_id']).where('id', '=', planId).executeTakeFirst();
}

export function findPlanPdf(db: Db, planId: number) {
  return db
    .selectFrom('diet_plans')
    .select(['id', 'client_id', 'from_date', 'to_date', 'pdf_data'])
    .where('id', '=', planId)
    .executeTakeFirst();
}

/** What the "your plan is ready" mail tells, with whether its client is still active. */
export function findPlanForMail(db: Db, planId: number) {
  return db
    .selectFrom('diet_plans as p')
    .innerJoin('users as u', 'u.id', 'p.client_id')
    .select(['u.email', 'u.first_name', 'u.is_active', 'p.title', 'p.from_date', 'p.to_date', 'p.version'])
    .where('p.id', '=', planId)
    .executeTakeFirst();
}
