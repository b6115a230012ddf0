import type { Db } from '../db/index.js';
import { type PageRequest, pagedList } from '../db/paging.js';

/** A page of one client's plans, newest first, along diet_plans_client_idx (client_id, from_date, id). */
export function pageClientPlans(db: Db, clientId: number, page: PageRequest) {
  return pagedList(page, db.selectFrom('diet_plans').where('client_id', '=', clientId), (q) =>
    q.select(['id', 'client_id', 'title', 'from_date', 'to_date']).orderBy('from_date', 'desc').orderBy('id', 'desc'),
  );
}

/**
 * The client's other plans whose dates meet [from, to], earliest first, along diet_plans_client_idx
 * (from_date <= to bounds the scan). A few are enough to name in a warning.
 */
export function overlappingPlans(db: Db, clientId: number, range: { from: string; to: string }, exceptId?: number) {
  let q = db
    .selectFrom('diet_plans')
    .select(['id', 'title', 'from_date', 'to_date'])
    .where('client_id', '=', clientId)
    .where('from_date', '<=', range.to)
    .where('to_date', '>=', range.from);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return q.orderBy('from_date').orderBy('id').limit(4).execute();
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
    .select(['u.id as user_id', 'u.email', 'u.first_name', 'u.is_active', 'p.title', 'p.from_date', 'p.to_date', 'p.version'])
    .where('p.id', '=', planId)
    .executeTakeFirst();
}

/* The console's side: every client's plans, versions, and their archive. */

const summaryColumns = [
  'p.id',
  'p.client_id',
  'u.first_name',
  'u.last_name',
  'p.title',
  'p.from_date',
  'p.to_date',
  'p.version',
  'p.source',
  'p.pdf_bytes',
  'p.created_at',
  'p.updated_at',
] as const;

const withClient = (db: Db) => db.selectFrom('diet_plans as p').innerJoin('users as u', 'u.id', 'p.client_id');

/** A page of plans, newest first overall (diet_plans_created_idx), or one client's along diet_plans_client_idx. */
export function pagePlans(db: Db, input: PageRequest & { clientId?: number }) {
  const { clientId } = input;
  if (clientId === undefined) {
    return pagedList(input, withClient(db), (q) => q.select(summaryColumns).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc'));
  }
  return pagedList(input, withClient(db).where('p.client_id', '=', clientId), (q) =>
    q.select(summaryColumns).orderBy('p.from_date', 'desc').orderBy('p.id', 'desc'),
  );
}

export function findPlanWithClient(db: Db, id: number) {
  return withClient(db)
    .select([...summaryColumns, 'p.content', 'p.created_by'])
    .where('p.id', '=', id)
    .executeTakeFirst();
}

export function lockPlanWithClient(db: Db, id: number) {
  return withClient(db)
    .select(['p.id', 'p.client_id', 'p.title', 'p.version', 'p.source', 'u.first_name', 'u.last_name'])
    .where('p.id', '=', id)
    .forUpdate('p')
    .executeTakeFirst();
}

/** Earlier versions, newest first, without their PDF bytes. */
export function listArchivedVersions(db: Db, planId: number) {
  return db
    .selectFrom('diet_plan_versions as v')
    .leftJoin('users as a', 'a.id', 'v.created_by')
    .select(['v.version', 'v.title', 'v.from_date', 'v.to_date', 'v.source', 'v.pdf_bytes', 'v.created_at', 'a.first_name', 'a.last_name'])
    .where('v.plan_id', '=', planId)
    .orderBy('v.version', 'desc')
    .execute();
}

export function creatorName(db: Db, userId: number | null) {
  if (userId === null) return Promise.resolve(undefined);
  return db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
}

/** The columns a version keeps, named alike in diet_plans and diet_plan_versions. */
const versionColumns = ['version', 'title', 'from_date', 'to_date', 'source', 'content', 'pdf_data', 'pdf_bytes', 'created_by'] as const;

/** Copies the current version into the archive in the database (the PDF never leaves it). */
export function archiveCurrentVersion(db: Db, planId: number) {
  return db
    .insertInto('diet_plan_versions')
    .columns(['plan_id', ...versionColumns, 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('diet_plans')
        .select(['id', ...versionColumns, 'updated_at'])
        .where('id', '=', planId),
    )
    .execute();
}

export type NewVersion = {
  title: string;
  from: string;
  to: string;
  source: 'upload' | 'composed';
  content: unknown | null;
  /** Absent: keep the current PDF. */
  pdf?: Uint8Array;
  createdBy: number;
};

export function writeNewVersion(db: Db, planId: number, version: number, v: NewVersion) {
  return db
    .updateTable('diet_plans')
    .set({
      version,
      title: v.title,
      from_date: v.from,
      to_date: v.to,
      source: v.source,
      content: v.content === null ? null : JSON.stringify(v.content),
      ...(v.pdf ? { pdf_data: v.pdf, pdf_bytes: v.pdf.byteLength } : {}),
      created_by: v.createdBy,
      updated_at: new Date(),
    })
    .where('id', '=', planId)
    .execute();
}

export function setComposedContent(db: Db, planId: number, content: unknown) {
  return db
    .updateTable('diet_plans')
    .set({ source: 'composed', content: JSON.stringify(content) })
    .where('id', '=', planId)
    .execute();
}

export async function pdfOfVersion(db: Db, planId: number, version: number) {
  const current = await db
    .selectFrom('diet_plans')
    .select(['pdf_data', 'from_date', 'to_date', 'version'])
    .where('id', '=', planId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (current) return current;
  return db
    .selectFrom('diet_plan_versions')
    .select(['pdf_data', 'from_date', 'to_date', 'version'])
    .where('plan_id', '=', planId)
    .where('version', '=', version)
    .executeTakeFirst();
}

export function deletePlan(db: Db, planId: number) {
  return db.deleteFrom('diet_plans').where('id', '=', planId).returning(['id']).executeTakeFirst();
}
