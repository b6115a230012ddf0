import type { Db } from '../../db/index.js';
import { offsetOf, paged } from '../paging.js';

/** Newest first; for one entity along audit_log_entity_idx. */
export function listAudit(db: Db, input: { entity?: string; entityId?: number; page: number; pageSize: number }) {
  const { offset, limit } = offsetOf(input);
  let rows = db
    .selectFrom('audit_log')
    .select(['id', 'actor_id', 'actor_email', 'action', 'entity', 'entity_id', 'summary', 'details', 'created_at']);
  let count = db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n'));
  if (input.entity) {
    rows = rows.where('entity', '=', input.entity);
    count = count.where('entity', '=', input.entity);
    if (input.entityId !== undefined) {
      rows = rows.where('entity_id', '=', input.entityId);
      count = count.where('entity_id', '=', input.entityId);
    }
  }
  return paged(
    input,
    rows
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute()
      .then((list) =>
        list.map((a) => ({
          id: a.id,
          actorId: a.actor_id,
          actorEmail: a.actor_email,
          action: a.action,
          entity: a.entity,
          entityId: a.entity_id,
          summary: a.summary,
          details: (typeof a.details === 'string' ? JSON.parse(a.details) : a.details) as Record<string, unknown>,
          createdAt: a.created_at,
        })),
      ),
    count.executeTakeFirst(),
  );
}
