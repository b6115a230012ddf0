import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { ROLE } from '../auth/roles.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import type { Database, Db } from '../db/index.js';
import type { AttachmentUse } from '../db/schema.js';
import { AppError, badRequest, forbidden, notFound, RateLimitError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { FileStorage } from '../storage/storage.js';
import { plainText } from '../validation.js';
import { type AcceptedType, EXTENSIONS, looksLikeWholePdf, nameContradicts, sniffType, TYPE_LABEL } from './file-type.js';
import { checkImageSize, reencodeImage, takeDecodePlace } from './images.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_MB, MAX_ATTACHMENTS_PER_ITEM, UNCLAIMED_LIFETIME_MS } from './limits.js';
import * as repo from './repo.js';
import { DAY_MS } from '../time.js';
import { type AttachmentRow, findAttachments, isUuid, uploadsSince } from './repo.js';
import { checkAttachmentLink, newLinkKey, signAttachmentLink, type Variant } from './signed-url.js';

export { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_MB, MAX_ATTACHMENTS_PER_ITEM, UNCLAIMED_LIFETIME_MS };
const MAX_NAME_LENGTH = 200;

/** What every reader of an attachment sees: `url` and `thumbnailUrl` are short-lived signed links an <img> or a download can open. */
export type AttachmentView = {
  id: string;
  name: string;
  contentType: AcceptedType;
  size: number;
  url: string;
  thumbnailUrl: string | null;
};

/** Who is looking: a session user (the tRPC context's `user`). */
export type AttachmentViewer = { id: number; role: number };

export const storageKey = (id: string, variant: Variant) => (variant === 'file' ? `attachments/${id}` : `attachments/${id}.thumb`);

export function toView(
  row: Pick<AttachmentRow, 'id' | 'name' | 'content_type' | 'size' | 'link_key' | 'has_thumbnail'>,
  now = Date.now(),
): AttachmentView {
  const file = { id: row.id, linkKey: row.link_key };
  return {
    id: row.id,
    name: row.name,
    contentType: row.content_type as AcceptedType,
    size: row.size,
    url: signAttachmentLink(file, 'file', now),
    thumbnailUrl: row.has_thumbnail ? signAttachmentLink(file, 'thumbnail', now) : null,
  };
}

/** Dietitians see every file; a client sees the files of their own record, and their own uploads until they are used. */
export function mayView(row: Pick<AttachmentRow, 'uploader_id' | 'client_id'>, viewer: AttachmentViewer): boolean {
  if (viewer.role === ROLE.admin) return true;
  if (row.client_id !== null) return row.client_id === viewer.id;
  return row.uploader_id === viewer.id;
}

// ---------------------------------------------------------------- the contract other domains use

/**
 * Marks uploads as used by a message, meal or document of a client's record, in the caller's
 * transaction (so they are used only if the message is stored). Only the uploader's own, ready,
 * unused uploads of the last day; at most five. Answers their views in the order of `ids`.
 */
export async function claimAttachments(
  trx: Transaction<Database>,
  args: { uploaderId: number; ids: readonly string[]; clientId: number; use: AttachmentUse },
): Promise<AttachmentView[]> {
  const refuse = (message: string): never => {
    throw badRequest(message, { attachmentIds: [message] });
  };
  if (args.ids.length === 0) return [];
  if (args.ids.length > MAX_ATTACHMENTS_PER_ITEM) refuse(`At most ${MAX_ATTACHMENTS_PER_ITEM} files can be attached at once.`);
  const ids = args.ids.map((id) => id.toLowerCase());
  if (new Set(ids).size !== ids.length) refuse('The same file is attached twice.');
  const wellFormed = ids.filter(isUuid);
  const rows = await repo.lockReadyAttachments(trx, wellFormed);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const since = Date.now() - UNCLAIMED_LIFETIME_MS;
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.uploader_id !== args.uploaderId) refuse('A file to attach was not found among your uploads. Upload it again.');
    if (row!.claimed_at !== null) refuse(`“${row!.name}” is already attached elsewhere. Upload it again to send it here.`);
    if (row!.created_at.getTime() <= since) refuse(`“${row!.name}” was uploaded more than a day ago and has expired. Upload it again.`);
  }
  await repo.markClaimed(trx, ids, { clientId: args.clientId, use: args.use, at: new Date() });
  const now = Date.now();
  return ids.map((id) => toView(byId.get(id)!, now));
}

/** Views of the files the viewer may see among `ids` (the others are left out), with fresh signed links. */
export async function attachmentViews(
  db: Kysely<Database>,
  ids: readonly string[],
  viewer: AttachmentViewer,
  now = Date.now(),
): Promise<Map<string, AttachmentView>> {
  const rows = await findAttachments(db, [...new Set(ids)]);
  return new Map(rows.filter((row) => mayView(row, viewer)).map((row) => [row.id, toView(row, now)]));
}

// ---------------------------------------------------------------- uploads

export type UploadDeps = {
  db: Kysely<Database>;
  storage: FileStorage;
  logger: Logger;
  clock: () => Date;
  limits: { uploads: { max: number; windowMs: number }; dailyBytes: number };
};

const fileError = (message: string, code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' = 'BAD_REQUEST') =>
  new AppError(code, message, { fieldErrors: { file: [message] } });

const nameRule = plainText('The file name');

/** The name as shown to readers: the last part of what the browser sent, checked like any text. */
function cleanName(raw: string, type: AcceptedType): string {
  const base = raw.split(/[\\/]/).pop()?.trim() ?? '';
  const name = base === '' || base === 'blob' ? `${type === 'application/pdf' ? 'document' : 'photo'}.${EXTENSIONS[type][0]}` : base;
  if (name.length > MAX_NAME_LENGTH)
    throw fileError(`The file name is too long: at most ${MAX_NAME_LENGTH} characters. Rename the file and try again.`);
  const checked = nameRule.safeParse(name);
  if (!checked.success) throw fileError(checked.error.issues[0]?.message ?? 'The file name is not valid.');
  return name;
}

/** What a file is, or a 4xx saying why it is not taken; nothing is stored or counted before this passes. */
export function checkUpload(file: { name: string; bytes: Uint8Array }): { type: AcceptedType; name: string } {
  if (file.bytes.length === 0) throw fileError('The file is empty (0 bytes). Choose a photo or a PDF that has something in it.');
  if (file.bytes.length > MAX_ATTACHMENT_BYTES) {
    throw fileError(`The file is too large: at most ${MAX_ATTACHMENT_MB} MB is accepted.`, 'PAYLOAD_TOO_LARGE');
  }
  const sniffed = sniffType(file.bytes);
  if (sniffed.kind === 'refused') {
    const heic = sniffed.what === 'a HEIC photo';
    throw fileError(
      heic
        ? 'HEIC photos cannot be read here yet. Send it as a JPEG (on an iPhone: Settings → Camera → Formats → Most Compatible), or take a screenshot of it.'
        : `This file is ${sniffed.what}, which cannot be attached. Send a photo (JPEG, PNG or WebP) or a PDF.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  const { type } = sniffed;
  if (nameContradicts(file.name, type)) {
    throw fileError(
      `“${file.name.split(/[\\/]/).pop()}” is named like another kind of file, but it is ${TYPE_LABEL[type]}. ` +
        `Rename it to end in .${EXTENSIONS[type][0]}, or choose the file you meant.`,
    );
  }
  if (type === 'application/pdf' && !looksLikeWholePdf(file.bytes)) {
    throw fileError('The file starts like a PDF but is not a whole one (it may be damaged or cut short). Please choose it again.');
  }
  return { type, name: cleanName(file.name, type) };
}

/** Seconds until `incoming` more bytes fit in the uploader's last 24 hours, 0 when they fit now. */
async function secondsUntilBytesFit(db: Db, uploaderId: number, incoming: number, budget: number, now: Date): Promise<number> {
  const rows = await uploadsSince(db, uploaderId, new Date(now.getTime() - DAY_MS));
  let used = rows.reduce((sum, r) => sum + r.received_bytes, 0);
  if (used + incoming <= budget) return 0;
  for (const row of rows) {
    used -= row.received_bytes;
    if (used + incoming <= budget) return Math.max(1, Math.ceil((row.created_at.getTime() + DAY_MS - now.getTime()) / 1000));
  }
  return Math.ceil(DAY_MS / 1000);
}

const countLimit = (deps: UploadDeps, uploaderId: number): KindedLimit => ({
  kind: 'upload-count',
  bucket: bucket.uploadCount(uploaderId),
  ...deps.limits.uploads,
});

/** Throws the 429 of the first of the uploader's limits that `incoming` more bytes would pass. */
async function checkLimits(db: Db, deps: UploadDeps, uploaderId: number, incoming: number, now: Date) {
  const countWait = await secondsUntilAllowed(db, countLimit(deps, uploaderId), now);
  if (countWait > 0) throw tooManyRequests('uploads', countWait, ['upload-count']);
  const bytesWait = await secondsUntilBytesFit(db, uploaderId, incoming, deps.limits.dailyBytes, now);
  if (bytesWait > 0) {
    const hours = Math.ceil(bytesWait / 3600);
    throw new RateLimitError(
      `You have uploaded the most we take in a day (${Math.round(deps.limits.dailyBytes / (1024 * 1024))} MB in 24 hours). ` +
        `Try again in ${hours} ${hours === 1 ? 'hour' : 'hours'}.`,
      bytesWait,
      ['upload-bytes'],
    );
  }
}

/**
 * Before any byte of the form is read: an uploader already at a limit, or whose file (at least
 * `incoming` bytes, from the body's declared length) would pass one, is refused from the headers
 * alone. Nothing is taken; reserveUpload counts the upload exactly once the file is known.
 */
export async function refuseOverLimits(deps: UploadDeps, uploaderId: number, incoming: number): Promise<void> {
  await checkLimits(deps.db, deps, uploaderId, incoming, deps.clock());
}

/**
 * Takes the upload's place in the uploader's limits and records its row (not ready yet) in one
 * transaction under the uploader's locks, so concurrent uploads on any instance are counted exactly.
 */
async function reserveUpload(deps: UploadDeps, uploaderId: number, row: { id: string; name: string; type: AcceptedType; bytes: number }) {
  const now = deps.clock();
  const count = countLimit(deps, uploaderId);
  const bytes = { bucket: bucket.uploadBytes(uploaderId), max: 1, windowMs: DAY_MS };
  await deps.db.transaction().execute(async (trx) => {
    await lockBuckets(
      trx,
      [count, bytes].sort((a, b) => (a.bucket < b.bucket ? -1 : 1)),
    );
    await checkLimits(trx, deps, uploaderId, row.bytes, now);
    await recordSlots(trx, [count], now);
    await repo.insertUpload(trx, {
      id: row.id,
      uploader_id: uploaderId,
      name: row.name,
      content_type: row.type,
      received_bytes: row.bytes,
      link_key: newLinkKey(),
      created_at: now,
    });
  });
}

/**
 * POST /api/attachments: checks the file (a photo's size from its header alone), takes a place in
 * the line of photos to decode, counts the upload against the uploader's limits, re-encodes an
 * image (the original is never stored), stores the result and its thumbnail, and answers its view.
 * Anything that fails after the row was made removes the row and whatever was stored.
 */
export async function uploadAttachment(
  deps: UploadDeps,
  uploader: AttachmentViewer,
  file: { name: string; bytes: Uint8Array },
): Promise<AttachmentView> {
  const { type, name } = checkUpload(file);
  if (type !== 'application/pdf') await checkImageSize(file.bytes, type);
  // Taken before the upload is counted: a photo refused because the line is full costs the uploader nothing.
  const place = type === 'application/pdf' ? null : takeDecodePlace();
  const id = randomUUID();
  try {
    await reserveUpload(deps, uploader.id, { id, name, type, bytes: file.bytes.length });
  } catch (err) {
    place?.leave();
    throw err;
  }
  try {
    let stored: Uint8Array;
    let thumbnail: Uint8Array | null = null;
    if (place && type !== 'application/pdf') ({ bytes: stored, thumbnail } = await reencodeImage(file.bytes, type, place));
    else stored = file.bytes;
    await deps.storage.put(storageKey(id, 'file'), stored, type);
    if (thumbnail) await deps.storage.put(storageKey(id, 'thumbnail'), thumbnail, 'image/webp');
    const row = await repo.markReady(deps.db, id, { size: stored.length, hasThumbnail: thumbnail !== null });
    return toView(row, deps.clock().getTime());
  } catch (err) {
    await discardUpload(deps, id).catch((cleanupError) =>
      deps.logger.warn('an upload that failed was not fully removed; the cleanup job will', { error: String(cleanupError) }),
    );
    throw err;
  }
}

async function discardUpload(deps: Pick<UploadDeps, 'db' | 'storage'>, id: string) {
  await deps.storage.delete(storageKey(id, 'file'));
  await deps.storage.delete(storageKey(id, 'thumbnail'));
  await repo.deleteAttachments(deps.db, [id]);
}

// ---------------------------------------------------------------- downloads

export const ATTACHMENT_NOT_FOUND = 'There is no such file.';
export const INVALID_ATTACHMENT_LINK = 'This link to a file is not valid. Open the file again from the app.';
export const EXPIRED_ATTACHMENT_LINK = 'This link to a file has expired. Open the file again from the app.';

/**
 * The file behind GET /api/attachments/{id}[/thumbnail]: for a signed-in viewer who may see it,
 * or for a valid signed link (no session: an <img> or a download sends none).
 */
export async function openAttachment(
  deps: Pick<UploadDeps, 'db' | 'storage' | 'clock'>,
  access: { viewer: AttachmentViewer } | { link: { exp?: string; sig?: string } },
  id: string,
  variant: Variant,
) {
  const [row] = await findAttachments(deps.db, [id]);
  if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
  if ('viewer' in access) {
    if (!mayView(row, access.viewer)) throw forbidden('This file belongs to another client’s record.');
  } else {
    const check = checkAttachmentLink({ id: row.id, linkKey: row.link_key }, variant, access.link, deps.clock().getTime());
    if (!check.ok) throw forbidden(check.reason === 'expired' ? EXPIRED_ATTACHMENT_LINK : INVALID_ATTACHMENT_LINK);
  }
  if (variant === 'thumbnail' && !row.has_thumbnail) throw notFound('This file has no thumbnail (only photos have one).');
  const object = await deps.storage.get(storageKey(row.id, variant));
  if (!object) throw notFound(ATTACHMENT_NOT_FOUND);
  return { row, object, contentType: variant === 'thumbnail' ? 'image/webp' : row.content_type };
}
