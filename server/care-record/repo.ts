import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import type { BodyMeasurementsTable, DocumentsTable, GoalsTable, ProgressPhotosTable } from '../db/schema.js';
import { DOCUMENTS_LIMIT, MEASUREMENTS_LIMIT, PROGRESS_PHOTOS_LIMIT } from './schema.js';

/** The care record's queries: intake, goals, measurements, progress photos and documents (decision 117). */

// ---------------------------------------------------------------- intake

export function findIntake(db: Db, clientId: number) {
  return db
    .selectFrom('intakes')
    .select(['client_id', 'answers', 'completed_at', 'updated_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** One row per client: the answers replace the saved ones; completed_at, once set, stays. */
export function saveIntake(db: Db, row: { client_id: number; answers: string; complete: boolean; updated_by: number; at: Date }) {
  return db
    .insertInto('intakes')
    .values({
      client_id: row.client_id,
      answers: row.answers,
      completed_at: row.complete ? row.at : null,
      updated_by: row.updated_by,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet((eb) => ({
        answers: eb.ref('excluded.answers'),
        updated_by: eb.ref('excluded.updated_by'),
        updated_at: eb.ref('excluded.updated_at'),
        completed_at: eb.fn.coalesce('intakes.completed_at', 'excluded.completed_at'),
      })),
    )
    .returning(['client_id', 'answers', 'completed_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

/** Of these clients, the ones who finished their intake questionnaire. */
export async function clientsWithIntakeDone(db: Db, clientIds: readonly number[]): Promise<Set<number>> {
  if (clientIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('intakes')
    .select('client_id')
    .where('client_id', 'in', [...clientIds])
    .where('completed_at', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.client_id));
}

// ---------------------------------------------------------------- goals

const goalColumns = [
  'goals.id',
  'goals.client_id',
  'goals.target_weight_kg',
  'goals.target_date',
  'goals.waist_cm',
  'goals.water_glasses',
  'goals.steps',
  'goals.habit',
  'goals.created_at',
  'setter.first_name as setter_first',
  'setter.last_name as setter_last',
] as const;

const goalsQuery = (db: Db) => db.selectFrom('goals').leftJoin('users as setter', 'setter.id', 'goals.set_by').select(goalColumns);

export function insertGoals(db: Db, row: Insertable<GoalsTable>) {
  return db
    .insertInto('goals')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function findGoalsByKey(db: Db, clientId: number, key: string) {
  return goalsQuery(db).where('goals.client_id', '=', clientId).where('goals.client_request_id', '=', key).executeTakeFirst();
}

export function findGoals(db: Db, id: number) {
  return goalsQuery(db).where('goals.id', '=', id).executeTakeFirstOrThrow();
}

/** Newest first: the first is the current goals. */
export function listGoals(db: Db, clientId: number, limit = 50) {
  return goalsQuery(db).where('goals.client_id', '=', clientId).orderBy('goals.id', 'desc').limit(limit).execute();
}

export type GoalsRow = Awaited<ReturnType<typeof listGoals>>[number];

/** Current goals of these clients (the newest row of each). */
export function currentGoalsOf(db: Db, clientIds: readonly number[]) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('goals')
    .select(['client_id', 'target_weight_kg', 'target_date'])
    .distinctOn('client_id')
    .where('client_id', 'in', [...clientIds])
    .orderBy('client_id')
    .orderBy('id', 'desc')
    .execute();
}

// ---------------------------------------------------------------- measurements

const measurementColumns = ['id', 'client_id', 'date', 'waist_cm', 'hip_cm', 'chest_cm', 'arm_cm', 'thigh_cm', 'created_at'] as const;

export function insertMeasurement(db: Db, row: Insertable<BodyMeasurementsTable>) {
  return db
    .insertInto('body_measurements')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_request_id']).doNothing())
    .returning(measurementColumns)
    .executeTakeFirst();
}

export function findMeasurementByKey(db: Db, clientId: number, key: string) {
  return db
    .selectFrom('body_measurements')
    .select(measurementColumns)
    .where('client_id', '=', clientId)
    .where('client_request_id', '=', key)
    .executeTakeFirst();
}

/** Newest first. */
export function listMeasurements(db: Db, clientId: number) {
  return db
    .selectFrom('body_measurements')
    .select(measurementColumns)
    .where('client_id', '=', clientId)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(MEASUREMENTS_LIMIT)
    .execute();
}

export type MeasurementRow = Awaited<ReturnType<typeof listMeasurements>>[number];

// ---------------------------------------------------------------- progress photos and documents (with their files)

const fileColumns = [
  'file.id as file_id',
  'file.name as file_name',
  'file.content_type as file_content_type',
  'file.size as file_size',
  'file.link_key as file_link_key',
  'file.has_thumbnail as file_has_thumbnail',
] as const;

const photosQuery = (db: Db) =>
  db
    .selectFrom('progress_photos as p')
    .innerJoin('attachments as file', 'file.id', 'p.attachment_id')
    .select(['p.id', 'p.client_id', 'p.date', 'p.pose', 'p.created_at', ...fileColumns]);

export function insertProgressPhoto(db: Db, row: Insertable<ProgressPhotosTable>) {
  return db
    .insertInto('progress_photos')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function findProgressPhotoByKey(db: Db, clientId: number, key: string) {
  return photosQuery(db).where('p.client_id', '=', clientId).where('p.client_request_id', '=', key).executeTakeFirst();
}

export function findProgressPhoto(db: Db, id: number) {
  return photosQuery(db).where('p.id', '=', id).executeTakeFirstOrThrow();
}

/** Newest date first; front before side on a day. */
export function listProgressPhotos(db: Db, clientId: number) {
  return photosQuery(db)
    .where('p.client_id', '=', clientId)
    .orderBy('p.date', 'desc')
    .orderBy('p.pose')
    .orderBy('p.id', 'desc')
    .limit(PROGRESS_PHOTOS_LIMIT)
    .execute();
}

export type ProgressPhotoRow = Awaited<ReturnType<typeof listProgressPhotos>>[number];

const documentsQuery = (db: Db) =>
  db
    .selectFrom('documents as d')
    .innerJoin('attachments as file', 'file.id', 'd.attachment_id')
    .leftJoin('users as adder', 'adder.id', 'd.uploaded_by')
    .select([
      'd.id',
      'd.client_id',
      'd.kind',
      'd.title',
      'd.date',
      'd.uploaded_by',
      'd.created_at',
      'adder.first_name as adder_first',
      'adder.last_name as adder_last',
      'adder.role as adder_role',
      ...fileColumns,
    ]);

export function insertDocument(db: Db, row: Insertable<DocumentsTable>) {
  return db
    .insertInto('documents')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'client_request_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function findDocumentByKey(db: Db, clientId: number, key: string) {
  return documentsQuery(db).where('d.client_id', '=', clientId).where('d.client_request_id', '=', key).executeTakeFirst();
}

export function findDocument(db: Db, id: number) {
  return documentsQuery(db).where('d.id', '=', id).executeTakeFirstOrThrow();
}

export function listDocuments(db: Db, clientId: number) {
  return documentsQuery(db)
    .where('d.client_id', '=', clientId)
    .orderBy('d.date', 'desc')
    .orderBy('d.id', 'desc')
    .limit(DOCUMENTS_LIMIT)
    .execute();
}

export type DocumentRow = Awaited<ReturnType<typeof listDocuments>>[number];

/** Every file sent in the client's conversation, newest first, with who sent it. */
export function listConversationFiles(db: Db, clientId: number) {
  return db
    .selectFrom('attachments as file')
    .innerJoin('message_attachments as ma', 'ma.attachment_id', 'file.id')
    .innerJoin('messages as m', 'm.id', 'ma.message_id')
    .leftJoin('users as sender', 'sender.id', 'm.sender_id')
    .select(['m.sent_at', 'm.sender_role', 'sender.first_name as sender_first', 'sender.last_name as sender_last', ...fileColumns])
    .where('file.client_id', '=', clientId)
    .where('file.used_for', '=', 'message')
    .orderBy('m.sent_at', 'desc')
    .limit(DOCUMENTS_LIMIT)
    .execute();
}

export type ConversationFileRow = Awaited<ReturnType<typeof listConversationFiles>>[number];
