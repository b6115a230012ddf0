import type { MessageRow } from './repo.js';

/**
 * Messages this instance has just stored, kept until their own NOTIFY comes back (decision 123): the live event
 * of a message sent here is built from the row the send already holds, instead of loading it again for its
 * subscribers. A speed trick only: a miss (the notification came back before the send's answer, the entry was
 * evicted, the message was sent on another instance) loads the row from the database as before. Messages with
 * files are never kept (their links are signed for each viewer), nor automatic replies.
 */
export class SentHere {
  private readonly rows = new Map<string, MessageRow>();

  constructor(private readonly max = 2_000) {}

  remember(row: MessageRow): void {
    if (row.attachment_ids.length > 0) return;
    // Oldest first out: a row whose notification was never heard here does not stay.
    if (this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(`${row.conversation_id}:${row.seq}`, row);
  }

  /** The row of a message sent here, once (its notification is shown once to all of its subscribers). */
  take(conversationId: number, seq: number): MessageRow | undefined {
    const key = `${conversationId}:${seq}`;
    const row = this.rows.get(key);
    if (row) this.rows.delete(key);
    return row;
  }

  get size(): number {
    return this.rows.size;
  }
}
