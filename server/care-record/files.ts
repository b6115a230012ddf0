import { toView } from '../attachments/service.js';
import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { serviceDay } from '../time.js';
import * as repo from './repo.js';
import {
  CONVERSATION_KIND,
  type CreateDocumentInput,
  type CreateProgressPhotoInput,
  type DocumentItem,
  type ProgressPhoto,
} from './schema.js';
import { type CareRecordDeps, claimOne, createOnce, nameOf, refuseFuture } from './shared.js';

// ---------------------------------------------------------------- files: progress photos and documents

type FileColumns = {
  file_id: string;
  file_name: string;
  file_content_type: string;
  file_size: number;
  file_link_key: string;
  file_has_thumbnail: boolean;
};
const fileView = (r: FileColumns, now: number) =>
  toView(
    {
      id: r.file_id,
      name: r.file_name,
      content_type: r.file_content_type,
      size: r.file_size,
      link_key: r.file_link_key,
      has_thumbnail: r.file_has_thumbnail,
    },
    now,
  );

const toPhoto = (r: repo.ProgressPhotoRow, now: number): ProgressPhoto => ({
  id: r.id,
  clientId: r.client_id,
  date: r.date,
  pose: r.pose,
  photo: fileView(r, now),
  createdAt: r.created_at,
});

const NOT_A_PHOTO = 'A progress photo must be a photo (JPEG, PNG or WebP), not a PDF.';

export async function createProgressPhoto(deps: CareRecordDeps, actor: SessionUser, input: CreateProgressPhotoInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  refuseFuture(input.date, now);
  const key = input.clientRequestId;
  const attachmentId = input.attachmentId.toLowerCase();
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findProgressPhotoByKey(trx, clientId, key),
    insert: async (trx) => {
      // Claimed first (it says why a file cannot be used); a repeat found its first row above and never gets here.
      const photo = await claimOne(trx, { uploaderId: actor.id, id: attachmentId, clientId, use: 'progress' });
      if (photo.contentType === 'application/pdf') throw badRequest(NOT_A_PHOTO, { attachmentId: [NOT_A_PHOTO] });
      const inserted = await repo.insertProgressPhoto(trx, {
        client_id: clientId,
        date: input.date,
        pose: input.pose,
        attachment_id: attachmentId,
        uploaded_by: actor.id,
        client_request_id: key,
        created_at: now,
      });
      if (!inserted) return undefined;
      return repo.findProgressPhoto(trx, inserted.id);
    },
    live: { part: 'photos' },
    same: (first) => ({ date: [first.date, input.date], pose: [first.pose, input.pose], attachmentId: [first.file_id, attachmentId] }),
  });
  return { ...toPhoto(once.row, now.getTime()), repeated: !once.created };
}

export async function listProgressPhotos(
  db: Db,
  actor: SessionUser,
  clientIdInput: number | undefined,
  now: Date,
): Promise<ProgressPhoto[]> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  return (await repo.listProgressPhotos(db, clientId)).map((r) => toPhoto(r, now.getTime()));
}

const toDocument = (r: repo.DocumentRow, now: number): DocumentItem => ({
  id: `document-${r.id}`,
  clientId: r.client_id,
  kind: r.kind,
  title: r.title,
  date: r.date,
  addedBy: r.adder_role === ROLE.admin ? 'dietitian' : 'client',
  addedByName: nameOf(r.adder_first, r.adder_last),
  file: fileView(r, now),
  createdAt: r.created_at,
});

const fromConversation = (clientId: number, r: repo.ConversationFileRow, now: number): DocumentItem => ({
  id: `message-${r.file_id}`,
  clientId,
  kind: CONVERSATION_KIND,
  title: r.file_name,
  date: serviceDay(r.sent_at),
  addedBy: r.sender_role === 'client' ? 'client' : 'dietitian',
  addedByName: nameOf(r.sender_first, r.sender_last),
  file: fileView(r, now),
  createdAt: r.sent_at,
});

export async function createDocument(deps: CareRecordDeps, actor: SessionUser, input: CreateDocumentInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  refuseFuture(input.date, now);
  const key = input.clientRequestId;
  const attachmentId = input.attachmentId.toLowerCase();
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findDocumentByKey(trx, clientId, key),
    insert: async (trx) => {
      await claimOne(trx, { uploaderId: actor.id, id: attachmentId, clientId, use: 'document' });
      const inserted = await repo.insertDocument(trx, {
        client_id: clientId,
        kind: input.kind,
        title: input.title,
        date: input.date,
        attachment_id: attachmentId,
        uploaded_by: actor.id,
        client_request_id: key,
        created_at: now,
      });
      if (!inserted) return undefined;
      return repo.findDocument(trx, inserted.id);
    },
    live: { part: 'documents', labReport: input.kind === 'lab-report' && actor.role === ROLE.client },
    same: (first) => ({
      kind: [first.kind, input.kind],
      title: [first.title, input.title],
      date: [first.date, input.date],
      attachmentId: [first.file_id, attachmentId],
    }),
  });
  return { ...toDocument(once.row, now.getTime()), repeated: !once.created };
}

/** Uploaded documents and every file sent in the conversation, newest date first. */
export async function listDocuments(db: Db, actor: SessionUser, clientIdInput: number | undefined, now: Date): Promise<DocumentItem[]> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  const [uploads, sent] = await Promise.all([repo.listDocuments(db, clientId), repo.listConversationFiles(db, clientId)]);
  const at = now.getTime();
  return [...uploads.map((r) => toDocument(r, at)), ...sent.map((r) => fromConversation(clientId, r, at))].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? 1 : -1) : b.createdAt.getTime() - a.createdAt.getTime(),
  );
}
