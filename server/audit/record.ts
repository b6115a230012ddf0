import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { insertAuditEntry } from './repo.js';

export type AuditEntry = {
  /** What happened, as entity.verb, e.g. 'client.created'. */
  action: string;
  entity: string;
  entityId?: number | null;
  /** One line a person reads in the audit screen. */
  summary: string;
  /** The fields that changed (never passwords, tokens or file contents). */
  details?: Record<string, unknown>;
};

/**
 * Writes one line of the audit trail. Call it with the transaction that makes
 * the change, so the trail and the change commit (or roll back) together.
 * Lives outside admin/ because other domains' admin-only writes (feed posts) record too.
 */
export async function recordAudit(trx: Db, actor: Pick<SessionUser, 'id' | 'email'>, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(trx, {
    actor_id: actor.id,
    actor_email: actor.email,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId ?? null,
    summary: entry.summary,
    details: JSON.stringify(entry.details ?? {}),
  });
}

/** Old → new for the fields that differ, for the audit details. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) out[key] = { from: before[key] ?? null, to: value };
  }
  return out;
}
