import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { MessagePush } from './notify.js';

/** Messages and conversations (issue 23): the Kysely queries, `db` or `trx` first. */

const conversationFields = [
  'c.id',
  'c.client_id',
  'c.primary_dietitian_id',
  'c.last_seq',
  'c.last_message_at',
  'c.last_sender_role',
  'c.auto_replied_until',
  'c.client_notified_at',
  'c.client_notified_seq',
  'c.team_notified_at',
  'c.team_notified_seq',
] as const;

/** The conversation of a client, made on first use (two first uses at once make one). */
export async function ensureConversation(db: Db, clientId: number) {
  await db
    .insertInto('conversations')
    .values({ client_id: clientId })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
  return db.selectFrom('conversations as c').select(conversationFields).where('c.client_id', '=', clientId).executeTakeFirstOrThrow();
}

/** A conversation with its client's and primary dietitian's names. */
export function findConversation(db: Db, id: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('users as u', 'u.id', 'c.client_id')
    .leftJoin('users as p', 'p.id', 'c.primary_dietitian_id')
    .select([
      ...conversationFields,
      'u.first_name as client_first',
      'u.last_name as client_last',
      'u.email as client_email',
      'u.is_active as client_active',
      'p.first_name as primary_first',
      'p.last_name as primary_last',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/**
 * The conversation row locked until the transaction ends: every message's seq
 * is taken from its counter under this lock, so seqs are gapless and numbered
 * in commit order on every instance.
 */
export function lockConversation(trx: Db, id: number) {
  return trx
    .selectFrom('conversations as c')
    .innerJoin('users as u', 'u.id', 'c.client_id')
    .select([...conversationFields, 'u.is_active as client_active'])
    .where('c.id', '=', id)
    .forUpdate('c')
    .executeTakeFirst();
}

const messageColumns = [
  'm.id',
  'm.conversation_id',
  'm.seq',
  'm.sender_id',
  'm.sender_role',
  'm.client_message_id',
  'm.text',
  'm.sent_at',
  's.first_name as sender_first',
  's.last_name as sender_last',
] as const;

/** Messages with their sender's name and their files' ids in order: one statement, also for a message without files. */
function messagesWithSender(db: Db) {
  return db
    .selectFrom('messages as m')
    .leftJoin('users as s', 's.id', 'm.sender_id')
    .select(messageColumns)
    .select(
      sql<string[]>`array(select ma.attachment_id from message_attachments ma where ma.message_id = m.id order by ma.position)`.as(
        'attachment_ids',
      ),
    );
}
export type MessageRow = Awaited<ReturnType<typeof findMessageByKey>> & {};

/** The message a sender sent with this key, if any. */
export function findMessageByKey(db: Db, senderId: number, clientMessageId: string) {
  return messagesWithSender(db).where('m.sender_id', '=', senderId).where('m.client_message_id', '=', clientMessageId).executeTakeFirst();
}

/**
 * A page of a conversation, ascending by seq: after `after` (catching up), or
 * the latest before `before` (scrolling up), or the latest `limit`.
 */
export async function listMessages(db: Db, conversationId: number, opts: { after?: number; before?: number; limit: number }) {
  let q = messagesWithSender(db).where('m.conversation_id', '=', conversationId);
  if (opts.after !== undefined) {
    q = q.where('m.seq', '>', opts.after);
    if (opts.before !== undefined) q = q.where('m.seq', '<', opts.before);
    return q.orderBy('m.seq', 'asc').limit(opts.limit).execute();
  }
  if (opts.before !== undefined) q = q.where('m.seq', '<', opts.before);
  const newestFirst = await q.orderBy('m.seq', 'desc').limit(opts.limit).execute();
  return newestFirst.reverse();
}

/**
 * The catch-up seam for live delivery: every message of a conversation after
 * `seq`, in order (at most `limit`; ask again from the last one for more).
 */
export function messagesAfter(db: Db, conversationId: number, seq: number, limit = 500) {
  return listMessages(db, conversationId, { after: seq, limit });
}

/** A participant has read up to `seq` (never backwards). Returns the seq now recorded. */
export async function markRead(db: Db, conversationId: number, userId: number, seq: number, at: Date) {
  const row = await db
    .insertInto('conversation_reads')
    .values({ conversation_id: conversationId, user_id: userId, last_read_seq: seq, read_at: at })
    .onConflict((oc) =>
      oc.columns(['conversation_id', 'user_id']).doUpdateSet({
        last_read_seq: sql`greatest(conversation_reads.last_read_seq, excluded.last_read_seq)`,
        read_at: sql`case when excluded.last_read_seq > conversation_reads.last_read_seq then excluded.read_at else conversation_reads.read_at end`,
      }),
    )
    .returning('last_read_seq')
    .executeTakeFirstOrThrow();
  return row.last_read_seq;
}

/** How far the client has read, and how far the furthest dietitian has. */
export async function readMarks(db: Db, conversationId: number, clientId: number) {
  const row = await db
    .selectFrom('conversation_reads')
    .select([
      sql<number>`coalesce(max(case when user_id = ${clientId} then last_read_seq end), 0)`.as('client_seq'),
      sql<number>`coalesce(max(case when user_id <> ${clientId} then last_read_seq end), 0)`.as('team_seq'),
    ])
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return { clientSeq: Number(row?.client_seq ?? 0), teamSeq: Number(row?.team_seq ?? 0) };
}

export function readSeqOf(db: Db, conversationId: number, userId: number) {
  return db
    .selectFrom('conversation_reads')
    .select('last_read_seq')
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.last_read_seq ?? 0);
}

/** The messages a viewer counts as unread are the other side's: the client's for the team, the team's (and automatic replies) for the client. */
const otherSide = (viewerIsClient: boolean) => (viewerIsClient ? (['dietitian', 'system'] as const) : (['client'] as const));

/** Unread messages for one viewer in one conversation. */
export async function unreadIn(db: Db, conversationId: number, viewerIsClient: boolean, afterSeq: number) {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', afterSeq)
    .where('sender_role', 'in', otherSide(viewerIsClient))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

type ListFilter = { clientId?: number; filter?: 'unread' | 'waiting' | 'all'; q?: string };

/** A viewer's unread count in each conversation row (`c`), as a correlated subquery along messages_conversation_seq. */
function unreadColumn(eb: ExpressionBuilder<Database & { c: Database['conversations'] }, 'c'>, viewerId: number, viewerIsClient: boolean) {
  return eb
    .selectFrom('messages as um')
    .select((e) => e.fn.countAll().as('n'))
    .whereRef('um.conversation_id', '=', 'c.id')
    .where('um.sender_role', 'in', otherSide(viewerIsClient))
    .where(
      'um.seq',
      '>',
      eb.fn.coalesce(
        eb
          .selectFrom('conversation_reads as r')
          .select('r.last_read_seq')
          .whereRef('r.conversation_id', '=', 'c.id')
          .where('r.user_id', '=', viewerId),
        sql.lit(0),
      ),
    );
}

/** Conversations as a viewer sees them, newest first, with unread counts and the last message. */
export function conversationsQuery(db: Db, viewerId: number, viewerIsClient: boolean, f: ListFilter) {
  let q = db
    .selectFrom('conversations as c')
    .innerJoin('users as u', 'u.id', 'c.client_id')
    .leftJoin('users as p', 'p.id', 'c.primary_dietitian_id')
    .select((eb) => [
      ...conversationFields,
      'u.first_name as client_first',
      'u.last_name as client_last',
      'u.is_active as client_active',
      'p.first_name as primary_first',
      'p.last_name as primary_last',
      unreadColumn(eb, viewerId, viewerIsClient).as('unread'),
    ]);
  if (f.clientId !== undefined) q = q.where('c.client_id', '=', f.clientId);
  if (f.filter === 'waiting') q = q.where('c.last_sender_role', '=', 'client');
  if (f.filter === 'unread') q = q.where((eb) => eb(unreadColumn(eb, viewerId, viewerIsClient), '>', 0));
  if (f.q) {
    const words = f.q;
    const name = `%${words.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`u.first_name || ' ' || u.last_name`, 'ilike', name),
        eb.exists(
          eb
            .selectFrom('messages as sm')
            .select('sm.id')
            .whereRef('sm.conversation_id', '=', 'c.id')
            .where(sql<boolean>`sm.search @@ websearch_to_tsquery('simple', ${words})`),
        ),
      ]),
    );
  }
  return q;
}

export async function pageConversations(
  db: Db,
  viewerId: number,
  viewerIsClient: boolean,
  f: ListFilter,
  page: { page: number; pageSize: number },
) {
  const base = conversationsQuery(db, viewerId, viewerIsClient, f);
  const [rows, total] = await Promise.all([
    base
      .orderBy(sql`c.last_message_at desc nulls last`)
      .orderBy('c.id', 'desc')
      .offset(page.page * page.pageSize)
      .limit(page.pageSize)
      .execute(),
    db
      .selectFrom(base.as('x'))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows: rows.map((r) => ({ ...r, unread: Number(r.unread) })), total: Number(total?.n ?? 0) };
}

/** Unread messages for a viewer over every conversation, and in how many conversations. */
export async function totalUnread(db: Db, viewerId: number, viewerIsClient: boolean, clientId?: number) {
  const base = conversationsQuery(db, viewerId, viewerIsClient, { clientId, filter: 'unread' });
  const row = await db
    .selectFrom(base.as('x'))
    .select([sql<number>`coalesce(sum(x.unread), 0)`.as('total'), sql<number>`count(*)`.as('conversations')])
    .executeTakeFirst();
  return { totalUnread: Number(row?.total ?? 0), conversations: Number(row?.conversations ?? 0) };
}

/**
 * The last message a person wrote in each conversation: an office-hours reply the server sent by itself
 * is passed over, so a list's preview shows what the client (or the team) last said.
 */
export function lastMessages(db: Db, conversations: { id: number; last_seq: number }[]) {
  const withMessages = conversations.filter((c) => c.last_seq > 0);
  if (withMessages.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('messages')
    .select(['conversation_id', 'seq', 'text', 'sender_role', 'sent_at'])
    .distinctOn('conversation_id')
    .where(
      'conversation_id',
      'in',
      withMessages.map((c) => c.id),
    )
    .where('sender_role', '<>', 'system')
    .orderBy('conversation_id')
    .orderBy('seq', 'desc')
    .execute();
}

/** The newest message of each conversation that matches the search words. */
export function latestMatches(db: Db, conversationIds: number[], words: string) {
  if (conversationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('messages')
    .select(['conversation_id', 'seq', 'text'])
    .distinctOn('conversation_id')
    .where('conversation_id', 'in', conversationIds)
    .where(sql<boolean>`search @@ websearch_to_tsquery('simple', ${words})`)
    .orderBy('conversation_id')
    .orderBy('seq', 'desc')
    .execute();
}

/** The seen marks of several conversations: the client's and the furthest dietitian's. */
export function readMarksOf(db: Db, conversations: { id: number; client_id: number }[]) {
  if (conversations.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('conversation_reads as r')
    .innerJoin('conversations as c', 'c.id', 'r.conversation_id')
    .select([
      'r.conversation_id',
      sql<number>`coalesce(max(case when r.user_id = c.client_id then r.last_read_seq end), 0)`.as('client_seq'),
      sql<number>`coalesce(max(case when r.user_id <> c.client_id then r.last_read_seq end), 0)`.as('team_seq'),
    ])
    .where(
      'r.conversation_id',
      'in',
      conversations.map((c) => c.id),
    )
    .groupBy('r.conversation_id')
    .execute();
}

export function setPrimaryDietitian(db: Db, conversationId: number, dietitianId: number | null) {
  return db.updateTable('conversations').set({ primary_dietitian_id: dietitianId }).where('id', '=', conversationId).executeTakeFirst();
}

/** Every message of a conversation, oldest first, for the client's download. */
export function allMessages(db: Db, conversationId: number, limit: number) {
  return messagesWithSender(db).where('m.conversation_id', '=', conversationId).orderBy('m.seq', 'asc').limit(limit).execute();
}

export function findDietitian(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'is_active'])
    .where('id', '=', id)
    .where('role', '=', 1)
    .executeTakeFirst();
}

/* Saved replies. */

export function listSavedReplies(db: Db, limit = 200) {
  return db.selectFrom('saved_replies').select(['id', 'title', 'body', 'updated_at']).orderBy('title').orderBy('id').limit(limit).execute();
}

export function insertSavedReply(db: Db, row: { title: string; body: string; created_by: number }) {
  return db.insertInto('saved_replies').values(row).returning(['id', 'title', 'body', 'updated_at']).executeTakeFirstOrThrow();
}

export function updateSavedReply(db: Db, id: number, row: { title: string; body: string; updated_at: Date }) {
  return db.updateTable('saved_replies').set(row).where('id', '=', id).returning(['id', 'title', 'body', 'updated_at']).executeTakeFirst();
}

export function deleteSavedReply(db: Db, id: number) {
  return db.deleteFrom('saved_replies').where('id', '=', id).returning('id').executeTakeFirst();
}

/* Office hours. */

/** The office hours, and their version as message_send compares it (microseconds since 1970 of the last change). */
export function findSettings(db: Db) {
  return db
    .selectFrom('message_settings')
    .select([
      'office_days',
      'office_opens',
      'office_closes',
      sql<string>`(extract(epoch from updated_at) * 1000000)::bigint::text`.as('version'),
    ])
    .where('id', '=', 1)
    .executeTakeFirst();
}

export function saveSettings(
  db: Db,
  row: { office_days: string | null; office_opens: string; office_closes: string; updated_by: number; updated_at: Date },
) {
  return db
    .insertInto('message_settings')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/* Notifications. */

/**
 * Conversations where a message from one side has waited unread since before
 * `olderThan` and no notification covered it yet: the candidates the
 * notification sweep decides on (it re-checks each under the conversation's lock).
 */
export function conversationsOwedNotice(db: Db, olderThan: Date, since: Date, limit = 200) {
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select('c.id')
    .distinct()
    .where('m.sent_at', '<=', olderThan)
    .where('m.sent_at', '>', since)
    .where('m.sender_role', '<>', 'system')
    .where((eb) =>
      eb.or([
        eb.and([eb('m.sender_role', '=', 'client'), eb('m.seq', '>', eb.ref('c.team_notified_seq'))]),
        eb.and([eb('m.sender_role', '=', 'dietitian'), eb('m.seq', '>', eb.ref('c.client_notified_seq'))]),
      ]),
    )
    .limit(limit)
    .execute();
}

/** The newest message of one side sent at or before `olderThan`, after `afterSeq`. */
export function oldestWaiting(db: Db, conversationId: number, role: 'client' | 'dietitian', afterSeq: number, olderThan: Date) {
  return messagesWithSender(db)
    .where('m.conversation_id', '=', conversationId)
    .where('m.sender_role', '=', role)
    .where('m.seq', '>', afterSeq)
    .where('m.sent_at', '<=', olderThan)
    .orderBy('m.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function recordNotice(trx: Db, conversationId: number, side: 'client' | 'team', seq: number, at: Date) {
  return trx
    .updateTable('conversations')
    .set(side === 'client' ? { client_notified_at: at, client_notified_seq: seq } : { team_notified_at: at, team_notified_seq: seq })
    .where('id', '=', conversationId)
    .execute();
}

/** A side's waiting messages up to `seq` were read before a notice was due: none is owed for them. */
export function settleNotice(trx: Db, conversationId: number, side: 'client' | 'team', seq: number) {
  return trx
    .updateTable('conversations')
    .set(side === 'client' ? { client_notified_seq: seq } : { team_notified_seq: seq })
    .where('id', '=', conversationId)
    .execute();
}

/**
 * Who hears of a message on one side (the database's `message_recipients`, which message_send reads too): the
 * client if active; for the team, the primary dietitian if active, else every active dietitian.
 */
export async function recipientsOf(db: Db, clientId: number, primaryDietitianId: number | null, side: 'client' | 'team') {
  const { rows } = await sql<{ user_id: number; email: string; first_name: string }>`
    select user_id, email, first_name from message_recipients(${clientId}::integer, ${primaryDietitianId}::integer, ${side}::text)`.execute(
    db,
  );
  return rows;
}

/** What `message_send` answered (migration 2026-11-26T0900, decision 123). */
export type SendOutcome = 'sent' | 'repeat' | 'limited' | 'missing' | 'forbidden' | 'deactivated' | 'stale-hours';
type SendRow = {
  outcome: SendOutcome;
  full_at: Date | null;
  client_id: number | null;
  push_ids: number[] | null;
} & { [K in Exclude<keyof MessageRow, 'attachment_ids'>]: MessageRow[K] | null };

export type SendInOneCall = {
  conversationId: number;
  senderId: number;
  senderRole: 'client' | 'dietitian';
  clientMessageId: string;
  text: string;
  at: Date;
  /** The sender's rate-limit bucket (its advisory lock serialises the sender's sends) and window. */
  limit: { bucket: string; max: number; windowMs: number };
  /** For a client: the version of the office hours `away` was computed from; a newer one answers 'stale-hours'. */
  hoursVersion: string | null;
  /** For a client writing while the office is closed: when it opens, and the away reply (once per closed period). */
  away: { until: Date; text: string } | null;
  push: MessagePush;
  channel: string;
};

/**
 * A send in one call (decision 123): the repeat check, the rate-limit slot, the seq under the conversation's
 * lock, the insert, the sender's read mark, the NOTIFY, the recipients' pushes and the away reply, or nothing
 * but an outcome saying why not. In the caller's transaction when it passes one (a send with files).
 */
export async function sendInOneCall(db: Db, a: SendInOneCall) {
  const { rows } = await sql<SendRow>`
    select * from message_send(${a.conversationId}::integer, ${a.senderId}::integer, ${a.senderRole}::text,
      ${a.clientMessageId}::uuid, ${a.text}::text, ${a.at}::timestamptz,
      ${a.limit.bucket}::text, ${a.limit.max}::integer, ${a.limit.windowMs}::bigint,
      ${a.hoursVersion}::text, ${a.away?.until ?? null}::timestamptz, ${a.away?.text ?? null}::text,
      ${JSON.stringify(a.push)}::jsonb, ${a.channel}::text)`.execute(db);
  return sendResultOf(rows[0]!);
}

export type SendResult = ReturnType<typeof sendResultOf>;

function sendResultOf(r: SendRow) {
  const { outcome, full_at, client_id, push_ids, ...message } = r;
  // A message just stored carries no files yet (the caller claims them); a repeat's are read with it again.
  return {
    outcome,
    fullAt: full_at,
    clientId: client_id,
    pushIds: push_ids ?? [],
    message: { ...message, attachment_ids: [] } as MessageRow,
  };
}

/**
 * Several sends in one call (`message_send_batch`, decision 124): each is `message_send` with all its rules, in one
 * transaction; the answers come back in the order of `sends`. One send that fails outright (not a refusal: an
 * error) fails the call, and nothing of it is stored.
 */
export async function sendBatchInOneCall(db: Db, sends: readonly SendInOneCall[]): Promise<SendResult[]> {
  const channel = sends[0]?.channel;
  if (!channel || sends.some((a) => a.channel !== channel)) throw new Error('a batch of sends notifies one channel');
  const items = sends.map((a) => ({
    conversation_id: a.conversationId,
    sender_id: a.senderId,
    sender_role: a.senderRole,
    client_message_id: a.clientMessageId,
    text: a.text,
    at: a.at.toISOString(),
    bucket: a.limit.bucket,
    limit_max: a.limit.max,
    limit_window_ms: a.limit.windowMs,
    hours_version: a.hoursVersion,
    away_until: a.away?.until.toISOString() ?? null,
    away_text: a.away?.text ?? null,
    push: a.push,
  }));
  const { rows } = await sql<SendRow & { idx: number }>`
    select * from message_send_batch(${JSON.stringify(items)}::jsonb, ${channel}::text)`.execute(db);
  if (rows.length !== sends.length) throw new Error(`message_send_batch answered ${rows.length} of ${sends.length} sends`);
  const results: SendResult[] = new Array(sends.length);
  for (const { idx, ...row } of rows) results[idx - 1] = sendResultOf(row);
  return results;
}

/** The live-delivery hint, sent from inside the change's transaction (only a commit sends it): ids and numbers only. */
export async function notifyMessages(trx: Db, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
}

/** Records the files a message carries, in the order attached. */
export async function insertMessageAttachments(db: Db, messageId: number, attachmentIds: readonly string[]) {
  if (attachmentIds.length === 0) return;
  await db
    .insertInto('message_attachments')
    .values(attachmentIds.map((attachment_id, position) => ({ message_id: messageId, attachment_id, position })))
    .execute();
}

/** Which of `ids` are files of messages of this conversation. */
export async function conversationAttachmentIds(db: Db, conversationId: number, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('message_attachments as ma')
    .innerJoin('messages as m', 'm.id', 'ma.message_id')
    .select('ma.attachment_id')
    .where('m.conversation_id', '=', conversationId)
    .where('ma.attachment_id', 'in', [...ids])
    .execute();
  return rows.map((r) => r.attachment_id);
}

/** One message of a conversation by its seq (a live event's). */
export function messageBySeq(db: Db, conversationId: number, seq: number) {
  return messagesWithSender(db).where('m.conversation_id', '=', conversationId).where('m.seq', '=', seq).executeTakeFirst();
}

/** The first name a typing notice shows. */
export function firstNameOf(db: Db, userId: number) {
  return db
    .selectFrom('users')
    .select('first_name')
    .where('id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.first_name ?? null);
}
