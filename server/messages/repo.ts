import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/index.js';

/** Messages and conversations: the Kysely queries, `db` or `trx` first (the send is send-repo.ts, the notices' notices-repo.ts). */

export const conversationFields = [
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
export function messagesWithSender(db: Db) {
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
