import type { SessionUser } from '../auth/session.js';
import { fullNameOf } from '../auth/session.js';
import { BRAND } from '../brand.js';
import type { Db } from '../db/index.js';
import { formatMoment } from '../format.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import * as repo from './repo.js';
import { conversationFor, toMessage } from './service.js';

/** Years of daily messages fit; a longer history is cut, and the file says so. */
export const EXPORT_MESSAGES_MAX = 20_000;

/**
 * "Download conversation" for the client: the whole conversation
 * as plain text, oldest first, each message with its sender and time in India
 * time. Attachments are named, not included.
 */
export async function exportConversation(db: Db, actor: SessionUser, conversationId: number, now: Date) {
  const conversation = await conversationFor(db, actor, conversationId);
  const rows = await repo.allMessages(db, conversation.id, EXPORT_MESSAGES_MAX + 1);
  const clientName = fullNameOf({ first_name: conversation.client_first, last_name: conversation.client_last });
  const lines = [
    `${BRAND.name}: messages between ${clientName} and the care team`,
    `Downloaded ${formatMoment(now, SERVICE_TIME_ZONE)} (India time)`,
    '',
  ];
  for (const row of rows.slice(0, EXPORT_MESSAGES_MAX)) {
    const m = toMessage(row);
    lines.push(`[${formatMoment(m.sentAt, SERVICE_TIME_ZONE)}] ${m.sender.name}:`);
    lines.push(...m.text.split(/\r?\n/).map((l) => `  ${l}`));
    for (const a of m.attachments) lines.push(`  (attachment: ${a.name})`);
    lines.push('');
  }
  if (rows.length > EXPORT_MESSAGES_MAX) lines.push(`Only the first ${EXPORT_MESSAGES_MAX} messages are in this file.`);
  if (rows.length === 0) lines.push('No messages yet.');
  return {
    filename: `${BRAND.name.toLowerCase()}-messages-${now.toISOString().slice(0, 10)}.txt`,
    contentType: 'text/plain; charset=utf-8',
    text: `${lines.join('\n')}\n`,
  };
}
