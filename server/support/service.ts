import { publicFormLimits, takeSlot } from '../auth/rate-limit.js';
import type { SessionUser } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { AppDeps } from '../deps.js';
import type { RequestMeta } from '../http/request-meta.js';
import { roleName } from '../auth/roles.js';
import { recordAudit } from '../audit/record.js';
import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import { notFound } from '../errors.js';
import { supportReplyMail } from '../mail/templates.js';
import * as repo from './repo.js';
import { SUPPORT_REQUEST_RECEIVED, type SupportRequestInput } from './schema.js';

/** Mail headers are one line: a name typed with line breaks must not add headers. */
export const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * Stores a Contact Us request and tells the team by mail. A signed-in caller
 * is answered at the account's address, whatever the form sent.
 */
export async function createSupportRequest(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  actor: SessionUser | null,
  meta: RequestMeta,
  input: SupportRequestInput,
) {
  const from = actor ? { name: actor.fullName, email: actor.email } : { name: input.name ?? '', email: input.email ?? '' };
  await takeSlot(deps.db, 'support requests', publicFormLimits(deps.config.rateLimits, 'support', meta.ip, from.email));
  const saved = await repo.insertSupportRequest(deps.db, { userId: actor?.id ?? null, ...from, message: input.message });
  await deps.mailer.queue({
    to: BRAND.supportEmail,
    subject: oneLine(`Support request #${saved.id} from ${from.name}`),
    text: [
      `Name: ${from.name}`,
      `Email: ${from.email}`,
      actor ? `Account: #${actor.id} (${roleName(actor.role)}, signed in)` : 'Account: none (visitor)',
      `Received: ${saved.created_at.toISOString()}`,
      '',
      input.message,
    ].join('\n'),
  });
  return { message: SUPPORT_REQUEST_RECEIVED };
}

const REQUEST_MISSING = 'That support request does not exist.';
type Status = 'open' | 'answered';

/** The console's inbox: oldest open requests first (answer in order); answered and all lists show the newest first. */
export async function listSupportRequests(db: Db, input: { status: 'all' | Status; page: number; pageSize: number }) {
  return mapPage(await repo.pageSupportRequests(db, input), (r) => ({
    id: r.id,
    userId: r.user_id,
    name: r.name,
    email: r.email,
    message: r.message,
    status: r.status,
    reply: r.reply,
    answeredAt: r.answered_at,
    answeredBy: r.answered_first ? `${r.answered_first} ${r.answered_last ?? ''}`.trim() : null,
    createdAt: r.created_at,
  }));
}

/** Mails the reply to the person who wrote, and files the request as answered. */
export async function replyToSupportRequest(
  deps: Pick<AppDeps, 'db' | 'mailer'>,
  actor: SessionUser,
  input: { id: number; reply: string },
) {
  const request = await deps.db.transaction().execute(async (trx) => {
    const request = await repo.lockSupportRequest(trx, input.id);
    if (!request) throw notFound(REQUEST_MISSING);
    await repo.markSupportRequestAnswered(trx, input.id, actor.id, input.reply);
    await recordAudit(trx, actor, {
      action: 'support.replied',
      entity: 'support_request',
      entityId: input.id,
      summary: `Replied to support request #${input.id} from ${request.name} <${request.email}>`,
      details: { reply: input.reply },
    });
    return request;
  });
  const sent = await deps.mailer.send(
    supportReplyMail({ to: request.email, name: request.name, question: request.message, reply: input.reply, dietitian: actor.fullName }),
  );
  return {
    message:
      sent.status === 'failed'
        ? 'The request is marked answered, but the reply mail could not be sent. See the outbox.'
        : `Your reply was mailed to ${request.email}.`,
  };
}

/** Files a request as answered without a mail (answered by phone or chat), or reopens it. */
export async function setSupportStatus(db: Db, actor: SessionUser, input: { id: number; status: Status }) {
  return db.transaction().execute(async (trx) => {
    const request = await repo.lockSupportRequest(trx, input.id);
    if (!request) throw notFound(REQUEST_MISSING);
    if (request.status === input.status) return { message: `The request is already ${input.status}.` };
    if (input.status === 'answered') await repo.markSupportRequestAnswered(trx, input.id, actor.id);
    else await repo.reopenSupportRequest(trx, input.id);
    await recordAudit(trx, actor, {
      action: input.status === 'answered' ? 'support.marked_answered' : 'support.reopened',
      entity: 'support_request',
      entityId: input.id,
      summary: `${input.status === 'answered' ? 'Marked answered' : 'Reopened'} support request #${input.id} from ${request.name}`,
    });
    return { message: input.status === 'answered' ? 'Marked as answered.' : 'Reopened.' };
  });
}
