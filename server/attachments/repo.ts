import type { Db } from '../db/index.js';

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
