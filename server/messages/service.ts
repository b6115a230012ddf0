import type { Kysely, Transaction } from 'kysely';
import { recordAudit } from '../audit/record.js';
import { bucket, type KindedLimit, secondsUntilFree, tooManyRequests } from '../auth/rate-limit.js';
import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { Db } from '../db/index.js';
import type { Database, MessageSenderRole } from '../db/schema.js';
import type { RateLimits } from '../env.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors.js';
import { type AttachmentView, type AttachmentViewer, attachmentViews, claimAttachments } from '../attachments/service.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Mailer } from '../mail/mailer.js';
import { KeptOfficeHours } from './settings.js';
import { messagePush } from './notify.js';
import { deliverAfterCommit } from '../notifications/notify.js';
import { MESSAGES_CHANNEL, type MessagesBus, publishMessageSignal } from './events.js';
import { awayReply, nextOpening } from './office-hours.js';
import { sameRequest } from '../db/idempotent.js';
import * as repo from './repo.js';
import { type SendInOneCall, sendMessages } from './send-repo.js';
import {
  CONVERSATION_MISSING,
  type ConversationSummary,
  type ListMessagesInput,
  type Message,
  type SendMessageInput,
  type SentMessage,
} from './schema.js';

/** `mailer` and `jobs` carry the recipient's push (notifications/notify.ts); without `jobs` it waits for the minute's sweep. */
export type MessageDeps = {
  db: Kysely<Database>;
  config: { rateLimits: Pick<RateLimits, 'messages'> };
  mailer: Mailer;
  jobs?: JobQueue;
  /** This instance's channel: its office hours, read once, and its sends, which share calls to the database. */
  messagesBus?: Pick<MessagesBus, 'officeHours' | 'sends'>;
};

/** Who an automatic reply is from. */
export const CARE_TEAM_NAME = `${BRAND.name} care team`;
const NOT_YOURS = 'You can only read and write your own conversation.';
const CLIENT_DEACTIVATED = 'This client’s account is deactivated: no new messages can be sent in this conversation.';

const isDietitian = (actor: SessionUser) => actor.role === ROLE.admin;
const roleOf = (actor: SessionUser): Exclude<MessageSenderRole, 'system'> => (isDietitian(actor) ? 'dietitian' : 'client');

export function toMessage(r: repo.MessageRow, attachments: readonly AttachmentView[] = []): Message {
  const system = r.sender_role === 'system';
  return {
    id: r.id,
    seq: r.seq,
    conversationId: r.conversation_id,
    clientMessageId: r.client_message_id,
    sender: {
      id: system ? null : r.sender_id,
      name: system
        ? CARE_TEAM_NAME
        : r.sender_first === null
          ? 'A former member of the team'
          : fullNameOf({ first_name: r.sender_first, last_name: r.sender_last ?? '' }),
      role: r.sender_role,
    },
    text: r.text,
    attachments: [...attachments],
    sentAt: r.sent_at,
  };
}

/** Messages as a viewer sees them, with their files' views (fresh signed links, from `now`); no query for messages without files. */
export async function messagesWithFiles(
  db: Db,
  viewer: AttachmentViewer,
  rows: readonly repo.MessageRow[],
  now = Date.now(),
): Promise<Message[]> {
  const ids = rows.flatMap((r) => r.attachment_ids);
  if (ids.length === 0) return rows.map((r) => toMessage(r));
  const views = await attachmentViews(db, ids, viewer, now);
  return rows.map((r) =>
    toMessage(
      r,
      r.attachment_ids.flatMap((id) => views.get(id) ?? []),
    ),
  );
}

const withFiles = async (db: Db, viewer: SessionUser, row: repo.MessageRow, now: Date) =>
  (await messagesWithFiles(db, viewer, [row], now.getTime()))[0]!;

/**
 * The conversation a viewer may open: any for a dietitian; for a client only
 * their own (403 for another client's). 404 when there is no such conversation.
 */
export async function conversationFor(db: Db, actor: SessionUser, conversationId: number) {
  const conversation = await repo.findConversation(db, conversationId);
  if (!conversation) throw notFound(CONVERSATION_MISSING, { conversationId: [CONVERSATION_MISSING] });
  if (!isDietitian(actor) && conversation.client_id !== actor.id) throw forbidden(NOT_YOURS);
  return conversation;
}

/** The client's one conversation with the care team, made on first use. */
export async function ownConversation(db: Db, actor: SessionUser) {
  if (isDietitian(actor)) throw badRequest('Dietitians open a client’s conversation by its id.');
  return repo.ensureConversation(db, actor.id);
}

/** New messages per sender, whoever sends them: a flood from one account stops at the server. */
function messageLimit(limits: Pick<RateLimits, 'messages'>, senderId: number): KindedLimit {
  return { kind: 'message-sender', bucket: bucket.messageSender(senderId), ...limits.messages };
}

/** Tries of a send whose office hours changed under it (each try reads them afresh). */
const HOURS_TRIES = 3;

/**
 * Sends a message, in one call to the database (`message_send`, sql/message_send.sql): under the sender's rate-limit
 * lock and then the conversation's row lock, the seq comes from the row's counter, so seqs are gapless and in
 * commit order across instances; the sender's read mark, the NOTIFY every instance hears on commit, the other
 * side's pushes and a closed office's away reply go with it. A repeat of a clientMessageId returns the first
 * message (never a second one) and is not counted against the limit. A message with files is sent in a
 * transaction that also claims them, so it stores all or nothing.
 */
export async function sendMessage(deps: MessageDeps, actor: SessionUser, input: SendMessageInput, now: Date): Promise<SentMessage> {
  const role = roleOf(actor);
  const limit = messageLimit(deps.config.rateLimits, actor.id);
  const attachmentIds = input.attachmentIds ?? [];
  const push = messagePush(input.conversationId, role, actor.fullName);

  const send = async (db: Db, fresh: boolean) => {
    // Without this instance's bus (a script, a test) the hours are read on every send.
    const known = role === 'client' ? await (deps.messagesBus?.officeHours ?? new KeptOfficeHours()).get(db, fresh) : null;
    const opensAt = known ? nextOpening(known.hours, now) : null;
    // Outside a transaction, sends arriving together share one call to the database (send-batch.ts).
    const call =
      db === deps.db && deps.messagesBus
        ? deps.messagesBus.sends.send.bind(deps.messagesBus.sends)
        : async (a: SendInOneCall) => (await sendMessages(db, [a]))[0]!;
    return call({
      conversationId: input.conversationId,
      senderId: actor.id,
      senderRole: role,
      clientMessageId: input.clientMessageId,
      text: input.text,
      at: now,
      limit,
      hoursVersion: known?.version ?? null,
      away: opensAt ? { until: opensAt, text: awayReply(opensAt) } : null,
      push,
      withFiles: attachmentIds.length > 0,
      channel: MESSAGES_CHANNEL,
    });
  };
  const sendOnce = async (db: Db) => {
    for (let tries = 1; ; tries++) {
      const sent = await send(db, tries > 1);
      if (sent.outcome !== 'stale-hours' || tries === HOURS_TRIES) return sent;
    }
  };
  /** Files go with their message: claimed for this client's record in the send's transaction, or nothing is stored. */
  const sendWithFiles = (trx: Transaction<Database>) =>
    sendOnce(trx).then(async (sent) => {
      if (sent.outcome !== 'sent') return sent;
      const claimed = await claimAttachments(trx, { uploaderId: actor.id, ids: attachmentIds, clientId: sent.clientId!, use: 'message' });
      const ids = claimed.map((a) => a.id);
      await repo.insertMessageAttachments(trx, sent.message.id, ids);
      return { ...sent, message: { ...sent.message, attachment_ids: ids } };
    });

  const sent = attachmentIds.length > 0 ? await deps.db.transaction().execute(sendWithFiles) : await sendOnce(deps.db);
  switch (sent.outcome) {
    case 'sent':
      deliverAfterCommit(deps, sent.pushIds)();
      return {
        ...(attachmentIds.length > 0 ? await withFiles(deps.db, actor, sent.message, now) : toMessage(sent.message)),
        repeated: false,
      };
    case 'repeat':
      // Read again with its files (a repeat is rare; the first answer may have carried some).
      return repeatOf(deps.db, actor, input, (await repo.findMessageByKey(deps.db, actor.id, input.clientMessageId)) ?? sent.message, now);
    case 'limited':
      throw tooManyRequests('messages sent in a short time', secondsUntilFree(sent.fullAt ?? undefined, limit, now), [limit.kind]);
    case 'missing':
      throw notFound(CONVERSATION_MISSING, { conversationId: [CONVERSATION_MISSING] });
    case 'forbidden':
      throw forbidden(NOT_YOURS);
    case 'deactivated':
      throw forbidden(CLIENT_DEACTIVATED);
    case 'stale-hours':
      throw new AppError('SERVICE_UNAVAILABLE', 'The office hours were being changed as you sent this. Please send it again.', {
        retryAfterSeconds: 1,
      });
  }
}

/**
 * A repeat of a clientMessageId: the first message, told only to whoever may still see its conversation;
 * sent with another text or other files, refused (422).
 */
async function repeatOf(db: Db, actor: SessionUser, input: SendMessageInput, row: repo.MessageRow, now: Date): Promise<SentMessage> {
  if (row.conversation_id !== input.conversationId) {
    // Told only to the sender who used the key, about their own message: nothing of the other conversation shows.
    throw conflict('This clientMessageId was already used for a message in another conversation. Make a new one for each message.');
  }
  // Their access may have changed since the first send.
  await conversationFor(db, actor, input.conversationId);
  // The send's SQL answers a repeat by its key alone; what it carried is compared here.
  const lower = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());
  sameRequest('clientMessageId', {
    text: [row.text, input.text],
    attachmentIds: [lower(row.attachment_ids ?? []), lower(input.attachmentIds ?? [])],
  });
  return { ...(await withFiles(db, actor, row, now)), repeated: true };
}

/**
 * A page of a conversation, ascending by seq, with how far each side has
 * read. A dietitian reading a client's messages is recorded in the audit log
 * (health data access), except for catching up (`after`) on what is open.
 */
export async function listMessages(db: Db, actor: SessionUser, input: ListMessagesInput, now = new Date()) {
  const conversation = await conversationFor(db, actor, input.conversationId);
  const [rows, marks] = await Promise.all([
    repo.listMessages(db, conversation.id, input),
    repo.readMarks(db, conversation.id, conversation.client_id),
  ]);
  if (isDietitian(actor) && input.after === undefined) {
    await recordAudit(db, actor, {
      action: 'conversation.opened',
      entity: 'conversation',
      entityId: conversation.id,
      summary: `Opened the conversation with ${fullNameOf({ first_name: conversation.client_first, last_name: conversation.client_last })}`,
      details: { clientId: conversation.client_id, before: input.before ?? null },
    });
  }
  const viewerIsClient = !isDietitian(actor);
  return {
    conversationId: conversation.id,
    messages: await messagesWithFiles(db, actor, rows, now.getTime()),
    lastSeq: conversation.last_seq,
    seenSeq: viewerIsClient ? marks.teamSeq : marks.clientSeq,
    readSeq: viewerIsClient ? marks.clientSeq : await repo.readSeqOf(db, conversation.id, actor.id),
  };
}

/** The viewer has read up to `seq` (at most the last message); the other side's "Seen" follows. */
export async function markRead(db: Kysely<Database>, actor: SessionUser, input: { conversationId: number; seq: number }, now: Date) {
  const conversation = await conversationFor(db, actor, input.conversationId);
  const seq = Math.min(input.seq, conversation.last_seq);
  const lastReadSeq = await db.transaction().execute(async (trx) => {
    const before = await repo.readSeqOf(trx, conversation.id, actor.id);
    const recorded = await repo.markRead(trx, conversation.id, actor.id, seq, now);
    if (recorded > before)
      await publishMessageSignal(trx, { kind: 'read', conversationId: conversation.id, userId: actor.id, seq: recorded });
    return recorded;
  });
  return {
    conversationId: conversation.id,
    lastReadSeq,
    unread: await repo.unreadIn(db, conversation.id, !isDietitian(actor), lastReadSeq),
  };
}

type SummaryRow = Awaited<ReturnType<typeof repo.pageConversations>>['rows'][number];

/** Conversation rows as a viewer sees them, with their last messages and seen marks. */
export async function summarize(db: Db, actor: SessionUser, rows: SummaryRow[]): Promise<ConversationSummary[]> {
  const [last, marks] = await Promise.all([repo.lastMessages(db, rows), repo.readMarksOf(db, rows)]);
  const lastById = new Map(last.map((m) => [m.conversation_id, m]));
  const marksById = new Map(marks.map((m) => [m.conversation_id, m]));
  const viewerIsClient = !isDietitian(actor);
  return rows.map((r) => {
    const m = lastById.get(r.id);
    const mark = marksById.get(r.id);
    return {
      id: r.id,
      client: {
        id: r.client_id,
        name: fullNameOf({ first_name: r.client_first, last_name: r.client_last }),
        firstName: r.client_first,
        active: r.client_active,
      },
      primaryDietitian:
        r.primary_dietitian_id === null || r.primary_first === null
          ? null
          : { id: r.primary_dietitian_id, name: fullNameOf({ first_name: r.primary_first, last_name: r.primary_last ?? '' }) },
      lastSeq: r.last_seq,
      unread: r.unread,
      seenSeq: Number((viewerIsClient ? mark?.team_seq : mark?.client_seq) ?? 0),
      lastMessage: m ? { seq: m.seq, text: m.text, senderRole: m.sender_role, sentAt: m.sent_at } : null,
      waitingForUs: r.last_sender_role === 'client',
    };
  });
}

/**
 * A client's list holds their one conversation (made if needed); a dietitian's
 * holds every conversation, newest first. Both with the viewer's unread counts.
 */
export async function listConversations(db: Db, actor: SessionUser, input: { page: number; pageSize: number }) {
  const viewerIsClient = !isDietitian(actor);
  if (viewerIsClient) await repo.ensureConversation(db, actor.id);
  const filter = viewerIsClient ? { clientId: actor.id } : {};
  const [page, unread] = await Promise.all([
    repo.pageConversations(db, actor.id, viewerIsClient, filter, input),
    repo.totalUnread(db, actor.id, viewerIsClient, viewerIsClient ? actor.id : undefined),
  ]);
  return {
    items: await summarize(db, actor, page.rows),
    total: page.total,
    page: input.page,
    pageSize: input.pageSize,
    totalUnread: unread.totalUnread,
  };
}

/** The navigation badge: unread messages over the viewer's conversations. */
export function unreadCount(db: Db, actor: SessionUser) {
  const viewerIsClient = !isDietitian(actor);
  return repo.totalUnread(db, actor.id, viewerIsClient, viewerIsClient ? actor.id : undefined);
}

/** Who watches a conversation: its id and client, and the viewer. */
export type ConversationViewer = { conversationId: number; clientId: number; userId: number; isClient: boolean };

/** Who is watching a conversation live (403 for another client's, 404 for an unknown one). */
export async function conversationViewer(db: Db, actor: SessionUser, conversationId: number): Promise<ConversationViewer> {
  const conversation = await conversationFor(db, actor, conversationId);
  return { conversationId: conversation.id, clientId: conversation.client_id, userId: actor.id, isClient: !isDietitian(actor) };
}

/**
 * Fresh signed links for files of an open conversation (theirs expire after
 * 15 minutes; a chat left open longer asks again): the views of those of
 * `attachmentIds` that messages of this conversation carry, signed from `now`.
 */
export async function conversationFiles(db: Db, actor: SessionUser, input: { conversationId: number; attachmentIds: string[] }, now: Date) {
  const conversation = await conversationFor(db, actor, input.conversationId);
  const ids = await repo.conversationAttachmentIds(db, conversation.id, input.attachmentIds);
  const views = await attachmentViews(db, ids, { id: conversation.client_id, role: ROLE.client }, now.getTime());
  return input.attachmentIds.flatMap((id) => views.get(id) ?? []);
}

/**
 * "Typing…": told to the other side through the `messages` channel (ids
 * only), never stored; at most one per sender and conversation every
 * TYPING_EVERY_MS (a notice inside that time is dropped, not refused).
 */
export async function announceTyping(
  deps: { db: Db; messagesBus: MessagesBus },
  actor: SessionUser,
  conversationId: number,
  nowMs: number,
) {
  const conversation = await conversationFor(deps.db, actor, conversationId);
  if (!deps.messagesBus.typingAllowed(actor.id, conversation.id, nowMs)) return { sent: false };
  await deps.messagesBus.publish(deps.db, { kind: 'typing', conversationId: conversation.id, userId: actor.id });
  return { sent: true };
}
