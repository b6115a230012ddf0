import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { conversationFields, messagesWithSender } from './repo.js';

/** The unread-message notices' queries (notify.ts decides): candidates, the conversation's lock, who is told, what was told. */

/**
 * The conversation row locked until the transaction ends: the notice sweep decides under it, and message_send
 * takes a message's seq under the same lock, so no message slips between the decision and the record.
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
 * Who hears of a message on one side (`message_recipients` in sql/, which message_send reads too): the
 * client if active; for the team, the primary dietitian if active, else every active dietitian.
 */
export async function recipientsOf(db: Db, clientId: number, primaryDietitianId: number | null, side: 'client' | 'team') {
  const { rows } = await sql<{ user_id: number; email: string; first_name: string }>`
    select user_id, email, first_name from message_recipients(${clientId}::integer, ${primaryDietitianId}::integer, ${side}::text)`.execute(
    db,
  );
  return rows;
}
