import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { MessagePush } from './notify.js';
import type { MessageRow } from './repo.js';

/** What `message_send` (sql/message_send.sql) answers for one send. */
export type SendOutcome = 'sent' | 'repeat' | 'limited' | 'missing' | 'forbidden' | 'deactivated' | 'stale-hours';
type SendRow = {
  idx: number;
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
  /** The sender's rate-limit bucket (its lock serialises the sender's sends) and window. */
  limit: { bucket: string; max: number; windowMs: number };
  /** For a client: the version of the office hours `away` was computed from; a newer one answers 'stale-hours'. */
  hoursVersion: string | null;
  /** For a client writing while the office is closed: when it opens, and the away reply (once per closed period). */
  away: { until: Date; text: string } | null;
  push: MessagePush;
  /** Files are claimed after the send in its transaction: its NOTIFY then carries ids only, and each instance reads it with them. */
  withFiles: boolean;
  channel: string;
};

export type SendResult = ReturnType<typeof sendResultOf>;

function sendResultOf(r: Omit<SendRow, 'idx'>) {
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
 * One send or several in one call to the database (`message_send`): each with every rule of its own (the repeat
 * check, the rate-limit slot, the seq under the conversation's lock, the insert, the sender's read mark, the NOTIFY,
 * the recipients' pushes, the away reply), or nothing but an outcome saying why not, in one transaction; the answers
 * come back in the order of `sends`. One send that fails outright (an error, not a refusal) fails the call, and
 * nothing of it is stored. In the caller's transaction when it passes one (a send with files).
 */
export async function sendMessages(db: Db, sends: readonly SendInOneCall[]): Promise<SendResult[]> {
  const channel = sends[0]?.channel;
  if (!channel || sends.some((a) => a.channel !== channel)) throw new Error('one call to message_send notifies one channel');
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
    with_files: a.withFiles,
  }));
  const { rows } = await sql<SendRow>`select * from message_send(${JSON.stringify(items)}::jsonb, ${channel}::text)`.execute(db);
  if (rows.length !== sends.length) throw new Error(`message_send answered ${rows.length} of ${sends.length} sends`);
  const results: SendResult[] = new Array(sends.length);
  for (const { idx, ...row } of rows) results[idx - 1] = sendResultOf(row);
  return results;
}
