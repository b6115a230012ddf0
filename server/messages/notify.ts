import type { Kysely } from 'kysely';
import { publicBaseUrl } from '../http/public-url.js';
import { fullNameOf } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { Db } from '../db/index.js';
import type { Database, MessageSenderRole } from '../db/schema.js';
import type { Config } from '../env.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import { composeMail } from '../mail/compose.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { type UserNotice, pushOf, recordNotices } from '../notifications/notify.js';
import * as noticesRepo from './notices-repo.js';
import * as repo from './repo.js';

/**
 * The one place that decides who hears of an unread message, and how
 * (decisions 113 and 115). Both channels go
 * through the one notification point (notifications/notify.ts), so the
 * person's preferences decide each.
 * - Push, immediately: a message sent tells its recipient's devices at once,
 *   in the call that stores it (`messagePush` makes it; message_send records
 *   it through record_push_notices).
 * - E-mail, after NOTICE_AFTER_MS: a message still unread then mails its
 *   recipient once: the client, or the care team (the primary dietitian,
 *   else every dietitian); at most one notice per conversation and side per
 *   NOTICE_GAP_MS, none if it was read meanwhile. Each notice is decided under
 *   the conversation's row lock and recorded on the conversation
 *   (`*_notified_at`, `*_notified_seq`) in the transaction that writes its
 *   mail to the outbox, so however many instances sweep, and whatever
 *   restarts between writing and sending (the outbox lease's sweep sends
 *   it), each goes out exactly once.
 * A notice names the sender and links to the conversation; it never holds
 * the message's text (health data stays in the app).
 */
export const MESSAGE_NOTICE_JOB = 'message-notices';
export const NOTICE_AFTER_MS = 10 * 60_000;
export const NOTICE_GAP_MS = 60 * 60_000;
/** Messages older than this are not noticed any more (a sweep that missed a day does not mail about last week). */
export const NOTICE_LOOKBACK_MS = 24 * 60 * 60_000;
export const NOTICE_SWEEP_MINUTES = 1;

export type NoticeDeps = {
  db: Kysely<Database>;
  mailer: Mailer;
  logger: Logger;
  config: Config;
  jobs?: JobQueue;
};

export type NoticeSide = 'client' | 'team';
export type Recipient = { userId: number; email: string; firstName: string };
/** A decided notice: who is told, about which conversation, from whom. Ids and names only. */
export type Notice = {
  conversationId: number;
  side: NoticeSide;
  seq: number;
  senderName: string;
  recipients: Recipient[];
  /** The path of the conversation in the app (the client's Messages, or the console's inbox). */
  path: string;
};

const conversationPath = (side: NoticeSide, conversationId: number) =>
  side === 'client' ? '/dashboard/messages' : `/admin/messages?conversation=${conversationId}`;

/** Who is told on one side: the client (if active), or the primary dietitian, else every active dietitian. */
async function recipientsOf(
  trx: Db,
  c: { client_id: number; primary_dietitian_id: number | null },
  side: NoticeSide,
): Promise<Recipient[]> {
  const rows = await noticesRepo.recipientsOf(trx, c.client_id, c.primary_dietitian_id, side);
  return rows.map((r) => ({ userId: r.user_id, email: r.email, firstName: r.first_name }));
}

/**
 * The push a message sends to the other side at once, as message_send records it in the
 * transaction that stores the message, for each recipient (recipientsOf's rule, in the database): the client
 * hears "New message from your dietitian", the care team "New message from <client>". The key of each is
 * `key_prefix` + seq + ':' + the recipient's id.
 */
export function messagePush(conversationId: number, senderRole: MessageSenderRole, senderName: string) {
  const side: NoticeSide = senderRole === 'client' ? 'team' : 'client';
  const keyPrefix = `message:${conversationId}:`;
  const push = pushOf(
    'messages',
    {
      title: side === 'client' ? 'New message from your dietitian' : `New message from ${senderName}`,
      body: `Open ${BRAND.name} to read it and reply.`,
      path: conversationPath(side, conversationId),
      // One notification per conversation on the phone: a newer message replaces the older one.
      tag: `messages:${conversationId}`,
    },
    keyPrefix,
  );
  return { ...push, key_prefix: keyPrefix };
}
export type MessagePush = ReturnType<typeof messagePush>;

/** The unread-message e-mails of a decided notice, through the notification point (the person's e-mail preference decides). */
function noticeMails(notice: Notice, baseUrl: string): UserNotice[] {
  return notice.recipients.map((r) => ({
    userId: r.userId,
    category: 'messages',
    key: `message-mail:${notice.conversationId}:${notice.seq}:${r.userId}`,
    mail: messageWaitingMail({ to: r.email, firstName: r.firstName, senderName: notice.senderName, link: `${baseUrl}${notice.path}` }),
  }));
}

export function messageWaitingMail(opts: { to: string; firstName: string; senderName: string; link: string }): Mail {
  return composeMail({
    to: opts.to,
    subject: `New message from ${opts.senderName}`,
    greetingName: opts.firstName,
    blocks: [
      `${opts.senderName} sent you a message in ${BRAND.name}. To keep your health details private, it is not in this e-mail: open the conversation to read it and reply.`,
      { button: { label: 'Open the conversation', href: opts.link } },
    ],
  });
}

type Locked = NonNullable<Awaited<ReturnType<typeof noticesRepo.lockConversation>>>;
type Decision = { notice: Notice } | { settled: number } | null;

/** What one side of a locked conversation is owed now: a notice, a settled mark (read meanwhile), or nothing yet. */
async function decide(trx: Db, c: Locked, side: NoticeSide, now: Date): Promise<Decision> {
  const from = side === 'team' ? 'client' : 'dietitian';
  const notifiedSeq = side === 'team' ? c.team_notified_seq : c.client_notified_seq;
  const notifiedAt = side === 'team' ? c.team_notified_at : c.client_notified_at;
  const waiting = await noticesRepo.oldestWaiting(trx, c.id, from, notifiedSeq, new Date(now.getTime() - NOTICE_AFTER_MS));
  if (!waiting) return null;
  const marks = await repo.readMarks(trx, c.id, c.client_id);
  const readUpTo = side === 'team' ? marks.teamSeq : marks.clientSeq;
  if (readUpTo >= waiting.seq) return { settled: waiting.seq };
  if (notifiedAt && now.getTime() - notifiedAt.getTime() < NOTICE_GAP_MS) return null;
  const senderName =
    waiting.sender_first === null
      ? `${BRAND.name} care team`
      : fullNameOf({ first_name: waiting.sender_first, last_name: waiting.sender_last ?? '' });
  const recipients = await recipientsOf(trx, c, side);
  if (recipients.length === 0) return { settled: waiting.seq };
  return {
    notice: {
      conversationId: c.id,
      side,
      seq: waiting.seq,
      senderName,
      recipients,
      path: conversationPath(side, c.id),
    },
  };
}

/**
 * Decides and records every notice owed at `now`, on whichever instance runs
 * it; returns the notices this call sent. Safe to run anywhere, any number of times.
 */
export async function sendMessageNotices(deps: NoticeDeps, now: Date): Promise<Notice[]> {
  const baseUrl = publicBaseUrl(deps);
  const candidates = await noticesRepo.conversationsOwedNotice(
    deps.db,
    new Date(now.getTime() - NOTICE_AFTER_MS),
    new Date(now.getTime() - NOTICE_LOOKBACK_MS),
  );
  const sent: Notice[] = [];
  for (const { id } of candidates) {
    const afterCommit: (() => void)[] = [];
    const notices = await deps.db.transaction().execute(async (trx) => {
      const c = await noticesRepo.lockConversation(trx, id);
      if (!c) return [];
      const decided: Notice[] = [];
      for (const side of ['team', 'client'] as const) {
        const d = await decide(trx, c, side, now);
        if (!d) continue;
        if ('settled' in d) {
          await noticesRepo.settleNotice(trx, c.id, side, d.settled);
          continue;
        }
        await noticesRepo.recordNotice(trx, c.id, side, d.notice.seq, now);
        afterCommit.push(await recordNotices(trx, deps, noticeMails(d.notice, baseUrl)));
        decided.push(d.notice);
      }
      return decided;
    });
    for (const run of afterCommit) run();
    sent.push(...notices);
  }
  if (sent.length > 0) deps.logger.info(`message notices sent: ${sent.length}`);
  return sent;
}

/** The sweep on the job queue, every minute on whichever instance takes it. */
export function scheduleMessageNotices(queue: JobQueue, deps: NoticeDeps, clock: () => Date) {
  return queue.define(
    MESSAGE_NOTICE_JOB,
    async () => {
      await sendMessageNotices(deps, clock());
    },
    { everyMinutes: NOTICE_SWEEP_MINUTES },
  );
}
