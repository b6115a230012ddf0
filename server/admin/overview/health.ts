import type { SessionUser } from '../../auth/session.js';
import { recordAudit } from '../../audit/record.js';
import type { AppDeps } from '../../deps.js';
import { conflict, notFound } from '../../errors.js';
import { HIDDEN_IN_OUTBOX } from '../../mail/mailer.js';
import { countUnsettledMail, findRetryableMail, listFailedMail } from '../../mail/repo.js';
import { failedDeliveries } from '../../push/repo.js';
import { FAILED_MAILS_SHOWN, FAILED_PUSHES_SHOWN, type OperationalHealth } from './schema.js';

/** Live clients and the last error come from this server's memory; failed mails from the outbox, failed pushes from their deliveries. */
export async function getOperationalHealth(deps: Pick<AppDeps, 'db' | 'metrics'>): Promise<OperationalHealth> {
  const [counts, failed, pushes] = await Promise.all([
    countUnsettledMail(deps.db),
    listFailedMail(deps.db, FAILED_MAILS_SHOWN),
    failedDeliveries(deps.db, FAILED_PUSHES_SHOWN),
  ]);
  const lastErrorAt = deps.metrics.lastErrorAt();
  return {
    liveClients: deps.metrics.liveClients(),
    lastErrorAt: lastErrorAt === null ? null : new Date(lastErrorAt),
    failedMailCount: counts.failed,
    failedMails: failed.map((m) => ({ id: m.id, to: m.to_address, subject: m.subject, error: m.error, createdAt: m.created_at })),
    failedPushCount: pushes.count,
    failedPushes: pushes.newest.map((p) => ({
      id: p.id,
      service: p.service_host,
      error: p.last_error,
      attempts: p.attempts,
      failedAt: p.settled_at,
    })),
  };
}

/**
 * Sends a failed mail again, or one a stopped sender left queued (once: a
 * second retry of the same mail finds it no longer retryable). Audited.
 */
export async function retryFailedMail(deps: Pick<AppDeps, 'db' | 'mailer'>, actor: SessionUser, input: { id: number }) {
  const { id } = input;
  const failed = await findRetryableMail(deps.db, id);
  if (failed?.body_text.includes(HIDDEN_IN_OUTBOX)) {
    throw conflict(
      "This mail carried a one-time link, which is never stored, so it cannot be sent again. Send a new link instead: 'Resend set-password link' on the client's page, or ask them to use Forgot password.",
    );
  }
  const result = await deps.mailer.retry(id);
  if (!result) throw notFound('That mail is not waiting for a retry: it was sent, is being sent, or was retried already.');
  await recordAudit(deps.db, actor, {
    action: 'outbox.retried',
    entity: 'outbox',
    entityId: id,
    summary: `Retried mail #${id}: ${result.status === 'failed' ? 'failed again' : 'delivered'}`,
    details: { status: result.status },
  });
  return result;
}
