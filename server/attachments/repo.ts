import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import type { AttachmentUse, AttachmentsTable } from '../db/schema.js';

export const attachmentColumns = [
  'id',
  'uploader_id',
  'name',
  'content_type',
  'size',
  'link_key',
  'has_thumbnail',
  'ready',
  'client_id',
  'used_for',
  'claimed_at',
  'created_at',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Only text that is a UUID reaches a uuid column (anything else would be a database error, not "unknown"). */
export const isUuid = (id: string) => UUID.test(id);

export function findAttachments(db: Db, ids: readonly string[]) {
  const wellFormed = ids.filter(isUuid).map((id) => id.toLowerCase());
  if (wellFormed.length === 0) return Promise.resolve([]);
  return db.selectFrom('attachments').select(attachmentColumns).where('id', 'in', wellFormed).where('ready', '=', true).execute();
}

export type AttachmentRow = Awaited<ReturnType<typeof findAttachments>>[number];

/** Bytes received from one person since `since`, oldest first (the daily upload limit). */
export function uploadsSince(db: Db, uploaderId: number, since: Date) {
  return db
    .selectFrom('attachments')
    .select(['received_bytes', 'created_at'])
    .where('uploader_id', '=', uploaderId)
    .where('created_at', '>', since)
    .orderBy('created_at', 'asc')
    .execute();
}

/** Uploads nobody claimed since before `cutoff`, locked for deletion (SKIP LOCKED: instances share the work). */
export function lockUnclaimedBefore(trx: Db, cutoff: Date, limit: number) {
  return trx
    .selectFrom('attachments')
    .select('id')
    .where('claimed_at', 'is', null)
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export function deleteAttachments(db: Db, ids: readonly string[]) {
  return db.deleteFrom('attachments').where('id', 'in', ids).execute();
}

/** The ready uploads among `ids` (well-formed UUIDs only), locked for a claim in the caller's transaction. */
export function lockReadyAttachments(trx: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('attachments').select(attachmentColumns).where('id', 'in', ids).where('ready', '=', true).forUpdate().execute();
}

export function markClaimed(trx: Db, ids: readonly string[], claim: { clientId: number; use: AttachmentUse; at: Date }) {
  return trx
    .updateTable('attachments')
    .set({ client_id: claim.clientId, used_for: claim.use, claimed_at: claim.at })
    .where('id', 'in', ids)
    .execute();
}

export function insertUpload(db: Db, row: Insertable<AttachmentsTable>) {
  return db.insertInto('attachments').values(row).execute();
}

/** The upload's bytes are stored: it may be seen and claimed from now on. */
export function markReady(db: Db, id: string, stored: { size: number; hasThumbnail: boolean }) {
  return db
    .updateTable('attachments')
    .set({ ready: true, size: stored.size, has_thumbnail: stored.hasThumbnail })
    .where('id', '=', id)
    .returning(attachmentColumns)
    .executeTakeFirstOrThrow();
}
