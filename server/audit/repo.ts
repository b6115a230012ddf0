import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { type PageRequest, pagedList } from '../db/paging.js';

/** A page of audit entries, newest first; for one entity along audit_log_entity_idx. */
export function pageAuditEntries(db: Db, input: PageRequest & { entity?: string; entityId?: number }) {
  let filtered = db.selectFrom('audit_log');
  if (input.entity) {
    filtered = filtered.where('entity', '=', input.entity);
    if (input.entityId !== undefined) filtered = filtered.where('entity_id', '=', input.entityId);
  }
  return pagedList(input, filtered, (q) =>
    q
      .select(['id', 'actor_id', 'actor_email', 'action', 'entity', 'entity_id', 'summary', 'details', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
}

/** One line of the audit trail, written in the caller's transaction (record.ts). */
export async function insertAuditEntry(trx: Db, row: Insertable<Database['audit_log']>): Promise<void> {
  await trx.insertInto('audit_log').values(row).execute();
}
