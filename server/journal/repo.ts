import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { Insertable, Updateable } from 'kysely';
import type { MealEntriesTable } from '../db/schema.js';

/** The meal journal and water: the Kysely queries, `db` or `trx` first. */

const entryColumns = [
  'e.id',
  'e.client_id',
  'e.client_entry_id',
  'e.meal',
  'e.eaten_at',
  'e.eaten_on',
  'e.description',
  'e.hunger_before',
  'e.fullness_after',
  'e.note',
  'e.mark',
  'e.marked_at',
  'e.created_at',
  'e.updated_at',
  'm.first_name as marker_first',
  'm.last_name as marker_last',
] as const;

const entries = (db: Db) => db.selectFrom('meal_entries as e').leftJoin('users as m', 'm.id', 'e.marked_by').select(entryColumns);
export type EntryRow = Awaited<ReturnType<typeof findEntry>> & {};

export function findEntry(db: Db, id: number) {
  return entries(db).where('e.id', '=', id).executeTakeFirst();
}

export function findEntryByKey(db: Db, clientId: number, clientEntryId: string) {
  return entries(db).where('e.client_id', '=', clientId).where('e.client_entry_id', '=', clientEntryId).executeTakeFirst();
}

/** The entry, locked until the transaction ends (an edit and a delete of one entry never interleave). */
export function lockEntry(trx: Db, id: number) {
  return trx.selectFrom('meal_entries').select(['id', 'client_id', 'eaten_on']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Stores an entry; with a key this client used already, nothing (insertOnce finds the first). */
export async function insertEntry(
  trx: Db,
  row: Omit<Insertable<MealEntriesTable>, 'id' | 'mark' | 'marked_by' | 'marked_at' | 'created_at' | 'updated_at'>,
) {
  const inserted = await trx
    .insertInto('meal_entries')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_entry_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? findEntry(trx, inserted.id) : undefined;
}

export function updateEntry(
  trx: Db,
  id: number,
  changes: Pick<
    Updateable<MealEntriesTable>,
    'meal' | 'eaten_at' | 'eaten_on' | 'description' | 'hunger_before' | 'fullness_after' | 'note'
  >,
  at: Date,
) {
  return trx
    .updateTable('meal_entries')
    .set({ ...changes, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export function deleteEntry(trx: Db, id: number) {
  return trx.deleteFrom('meal_entries').where('id', '=', id).execute();
}

export function setMark(trx: Db, id: number, mark: MealEntriesTable['mark'], by: number | null, at: Date | null) {
  return trx.updateTable('meal_entries').set({ mark, marked_by: by, marked_at: at }).where('id', '=', id).execute();
}

/** A client's entries of [from, to], in the order eaten (meal_entries_client_day_idx). */
export function entriesBetween(db: Db, clientId: number, from: string, to: string) {
  return entries(db)
    .where('e.client_id', '=', clientId)
    .where('e.eaten_on', '>=', from)
    .where('e.eaten_on', '<=', to)
    .orderBy('e.eaten_on')
    .orderBy('e.eaten_at')
    .orderBy('e.id')
    .execute();
}

/** Days of [from, to] with at least one entry. */
export async function daysWithEntries(db: Db, clientId: number, from: string, to: string): Promise<string[]> {
  const rows = await db
    .selectFrom('meal_entries')
    .select('eaten_on')
    .distinct()
    .where('client_id', '=', clientId)
    .where('eaten_on', '>=', from)
    .where('eaten_on', '<=', to)
    .orderBy('eaten_on')
    .execute();
  return rows.map((r) => r.eaten_on);
}

/* Photos. */

export async function photoIdsOf(db: Db, entryIds: readonly number[]): Promise<Map<number, string[]>> {
  if (entryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('meal_entry_attachments')
    .select(['entry_id', 'attachment_id'])
    .where('entry_id', 'in', [...entryIds])
    .orderBy('entry_id')
    .orderBy('position')
    .execute();
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.entry_id, [...(out.get(r.entry_id) ?? []), r.attachment_id]);
  return out;
}

export async function insertPhotos(trx: Db, entryId: number, attachmentIds: readonly string[], firstPosition = 0) {
  if (attachmentIds.length === 0) return;
  await trx
    .insertInto('meal_entry_attachments')
    .values(attachmentIds.map((attachment_id, i) => ({ entry_id: entryId, attachment_id, position: firstPosition + i })))
    .execute();
}

/** Sets the photos' order to `attachmentIds` (all already the entry's): positions are rewritten past the old ones first. */
export async function reorderPhotos(trx: Db, entryId: number, attachmentIds: readonly string[]) {
  await trx
    .updateTable('meal_entry_attachments')
    .set((eb) => ({ position: eb('position', '+', 1000) }))
    .where('entry_id', '=', entryId)
    .execute();
  for (const [i, id] of attachmentIds.entries()) {
    await trx
      .updateTable('meal_entry_attachments')
      .set({ position: i })
      .where('entry_id', '=', entryId)
      .where('attachment_id', '=', id)
      .execute();
  }
}

/* Comments. */

const commentColumns = [
  'c.id',
  'c.entry_id',
  'c.author_id',
  'c.author_role',
  'c.client_comment_id',
  'c.text',
  'c.created_at',
  'a.first_name as author_first',
  'a.last_name as author_last',
] as const;
const comments = (db: Db) => db.selectFrom('meal_comments as c').leftJoin('users as a', 'a.id', 'c.author_id').select(commentColumns);
export type CommentRow = Awaited<ReturnType<typeof findComment>> & {};

export function findComment(db: Db, id: number) {
  return comments(db).where('c.id', '=', id).executeTakeFirst();
}

export function findCommentByKey(db: Db, authorId: number, clientCommentId: string) {
  return comments(db).where('c.author_id', '=', authorId).where('c.client_comment_id', '=', clientCommentId).executeTakeFirst();
}

export function commentsOf(db: Db, entryIds: readonly number[]) {
  if (entryIds.length === 0) return Promise.resolve([]);
  return comments(db)
    .where('c.entry_id', 'in', [...entryIds])
    .orderBy('c.entry_id')
    .orderBy('c.id')
    .execute();
}

export async function insertComment(
  trx: Db,
  row: {
    entry_id: number;
    author_id: number;
    author_role: 'client' | 'dietitian';
    client_comment_id: string | null;
    text: string;
    created_at: Date;
  },
) {
  const inserted = await trx
    .insertInto('meal_comments')
    .values(row)
    .onConflict((oc) => oc.columns(['author_id', 'client_comment_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? findComment(trx, inserted.id) : undefined;
}

/* Water. */

export async function waterOn(db: Db, clientId: number, day: string): Promise<number> {
  const row = await db
    .selectFrom('water_intake')
    .select('glasses')
    .where('client_id', '=', clientId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.glasses ?? 0;
}

export function setWater(db: Db, clientId: number, day: string, glasses: number, at: Date) {
  return db
    .insertInto('water_intake')
    .values({ client_id: clientId, day, glasses, updated_at: at })
    .onConflict((oc) => oc.columns(['client_id', 'day']).doUpdateSet({ glasses, updated_at: at }))
    .execute();
}

/* Around the journal. */

/** The client's diet plan covering `day` (the latest starting, if two overlap). */
export function planCovering(db: Db, clientId: number, day: string) {
  return db
    .selectFrom('diet_plans')
    .select(['id', 'title', 'source', 'content', 'from_date'])
    .where('client_id', '=', clientId)
    .where('from_date', '<=', day)
    .where('to_date', '>=', day)
    .orderBy('from_date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The client's account, for a notice (only an active client is told). */
export function clientContact(db: Db, clientId: number) {
  return db.selectFrom('users').select(['id', 'email', 'first_name', 'is_active']).where('id', '=', clientId).executeTakeFirst();
}

/**
 * Who hears of a client's word in their journal: the care team as for a message (the database's
 * `message_recipients`, decision 123): the primary dietitian of the client's conversation when active, else
 * every active dietitian.
 */
export async function careTeamOf(db: Db, clientId: number) {
  const { rows } = await sql<{ id: number; first_name: string }>`
    select user_id as id, first_name from message_recipients(${clientId}::integer,
      (select c.primary_dietitian_id from conversations c where c.client_id = ${clientId}), 'team')`.execute(db);
  return rows;
}

/** Per client: days with a meal among [from, to], and the last day anything was logged (the follow-up queue). */
export function adherenceOf(db: Db, clientIds: readonly number[], from: string, to: string) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('meal_entries')
    .select((eb) => [
      'client_id',
      sql<number>`count(distinct eaten_on) filter (where eaten_on between ${from} and ${to})`.as('days_logged'),
      eb.fn.max('eaten_on').as('last_logged'),
    ])
    .where('client_id', 'in', [...clientIds])
    .where('eaten_on', '<=', to)
    .groupBy('client_id')
    .execute();
}

export async function notifyJournal(trx: Db, channel: string, payload: string) {
  await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
}
