import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import * as repo from './repo.js';

/** The console's audit log: newest first; for one entity along audit_log_entity_idx. */
export async function listAudit(db: Db, input: { entity?: string; entityId?: number; page: number; pageSize: number }) {
  return mapPage(await repo.pageAuditEntries(db, input), (a) => ({
    id: a.id,
    actorId: a.actor_id,
    actorEmail: a.actor_email,
    action: a.action,
    entity: a.entity,
    entityId: a.entity_id,
    summary: a.summary,
    details: (typeof a.details === 'string' ? JSON.parse(a.details) : a.details) as Record<string, unknown>,
    createdAt: a.created_at,
  }));
}
