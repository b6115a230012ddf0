import type { Db } from '../db/index.js';
import { notifyMessages } from './repo.js';
import type { MessageSignal } from './schema.js';

/**
 * The seam for live delivery (issue 23): every committed change to a
 * conversation (a message, a read receipt) notifies this channel from inside
 * its transaction, so the hint goes out only if the change commits. The
 * payload holds ids and numbers, never text: a listener loads what it needs
 * with repo.messagesAfter(conversationId, seq), which also replays a gap.
 */
export const MESSAGES_CHANNEL = 'messages';

export async function publishMessageSignal(trx: Db, signal: MessageSignal): Promise<void> {
  await notifyMessages(trx, MESSAGES_CHANNEL, JSON.stringify(signal));
}

/** A payload from the channel, or null when it is not one of ours. */
export function parseMessageSignal(payload: string): MessageSignal | null {
  try {
    const v = JSON.parse(payload) as Partial<Record<string, unknown>>;
    const ids = [v.conversationId, v.seq].every((n) => Number.isInteger(n));
    if (v.kind === 'message' && ids) return { kind: 'message', conversationId: v.conversationId as number, seq: v.seq as number };
    if (v.kind === 'read' && ids && Number.isInteger(v.userId)) {
      return { kind: 'read', conversationId: v.conversationId as number, userId: v.userId as number, seq: v.seq as number };
    }
  } catch {}
  return null;
}
