import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import * as repo from './repo.js';

/** The console's outbox: mails newest first, along outbox_created_idx (or outbox_to_idx for one recipient). */
export async function listOutbox(db: Db, input: { to?: string; page: number; pageSize: number }) {
  return mapPage(await repo.pageOutboxMails(db, input), (m) => ({
    id: m.id,
    to: m.to_address,
    subject: m.subject,
    body: m.body_text,
    status: m.status,
    error: m.error,
    createdAt: m.created_at,
    sentAt: m.sent_at,
  }));
}
