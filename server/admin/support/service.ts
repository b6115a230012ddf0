import type { SessionUser } from '../../auth/session.js';
import { BRAND } from '../../brand.js';
import type { AppDeps } from '../../deps.js';
import type { Db } from '../../db/index.js';
import { notFound } from '../../errors.js';
import type { Mail } from '../../mail/mailer.js';
import { recordAudit } from '../../audit/record.js';
import { offsetOf, paged } from '../paging.js';

const REQUEST_MISSING = 'That support request does not exist.';
type Status = 'open' | 'answered';

const columns = [
  's.id',
  's.user_id',
  's.name',
  's.email',
  's.message',
  's.status',
  's.reply',
  's.answered_at',
  's.created_at',
  'a.first_name as answered_first',
  'a.last_name as answered_last',
] as const;

/** Oldest open requests first (answer in order); answered and all lists show the newest first. */
export function listSupportRequests(db: Db, input: { status: 'all' | Status; page: number; pageSize: number }) {
  const { offset, limit } = offsetOf(input);
  let rows = db.selectFrom('support_requests as s').leftJoin('users as a', 'a.id', 's.answered_by').select(columns);
  let count = db.selectFrom('support_requests').select((eb) => eb.fn.countAll().as('n'));
  if (input.status !== 'all') {
    rows = rows.where('s.status', '=', input.status);
    count = count.where('status', '=', input.status);
  }
  const direction = input.status === 'open' ? 'asc' : 'desc';
  return paged(
    input,
    rows
      .orderBy('s.created_at', direction)
      .orderBy('s.id', direction)
      .offset(offset)
      .limit(limit)
      .execute()
      .then((list) =>
        list.map((r) => ({
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
        })),
      ),
    count.executeTakeFirst(),
  );
}

function lockRequest(db: Db, id: number) {
  return db
    .selectFrom('support_requests')
    .select(['id', 'name', 'email', 'message', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

function replyMail(to: string, name: string, question: string, reply: string, dietitian: string): Mail {
  const quoted = question
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    to,
    subject: `Re: your message to ${BRAND.name}`,
    text: [`Hello ${name},`, '', reply, '', `${dietitian}`, `${BRAND.name} · ${BRAND.supportEmail}`, '', 'You wrote:', quoted].join('\n'),
  };
}

/** Mails the reply to the person who wrote, and files the request as answered. */
export async function replyToSupportRequest(
  deps: Pick<AppDeps, 'db' | 'mailer'>,
  actor: SessionUser,
  input: { id: number; reply: string },
) {
  const request = await deps.db.transaction().execute(async (trx) => {
    const request = await lockRequest(trx, input.id);
    if (!request) throw notFound(REQUEST_MISSING);
    await trx
      .updateTable('support_requests')
      .set({ status: 'answered', reply: input.reply, answered_at: new Date(), answered_by: actor.id })
      .where('id', '=', input.id)
      .execute();
    await recordAudit(trx, actor, {
      action: 'support.replied',
      entity: 'support_request',
      entityId: input.id,
      summary: `Replied to support request #${input.id} from ${request.name} <${request.email}>`,
      details: { reply: input.reply },
    });
    return request;
  });
  const sent = await deps.mailer.send(replyMail(request.email, request.name, request.message, input.reply, actor.fullName));
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
    const request = await lockRequest(trx, input.id);
    if (!request) throw notFound(REQUEST_MISSING);
    if (request.status === input.status) return { message: `The request is already ${input.status}.` };
    await trx
      .updateTable('support_requests')
      .set(
        input.status === 'answered'
          ? { status: 'answered', answered_at: new Date(), answered_by: actor.id }
          : { status: 'open', answered_at: null, answered_by: null },
      )
      .where('id', '=', input.id)
      .execute();
    await recordAudit(trx, actor, {
      action: input.status === 'answered' ? 'support.marked_answered' : 'support.reopened',
      entity: 'support_request',
      entityId: input.id,
      summary: `${input.status === 'answered' ? 'Marked answered' : 'Reopened'} support request #${input.id} from ${request.name}`,
    });
    return { message: input.status === 'answered' ? 'Marked as answered.' : 'Reopened.' };
  });
}
