import { describe, expect, it } from 'vitest';
import type { MessageRow } from './repo.js';
import { SentHere } from './sent-here.js';

const row = (conversationId: number, seq: number, files: string[] = []): MessageRow => ({
  id: conversationId * 1000 + seq,
  conversation_id: conversationId,
  seq,
  sender_id: 7,
  sender_role: 'client',
  client_message_id: null,
  text: `message ${seq}`,
  sent_at: new Date('2026-11-26T10:00:00Z'),
  sender_first: 'Asha',
  sender_last: 'Verma',
  attachment_ids: files,
});

describe('SentHere', () => {
  it('gives a message sent here to its live event once, then loads as usual', () => {
    const kept = new SentHere();
    kept.remember(row(1, 4));
    expect(kept.take(1, 4)?.text).toBe('message 4');
    expect(kept.take(1, 4)).toBeUndefined();
    expect(kept.take(2, 4)).toBeUndefined();
  });

  it('never keeps a message with files (their links are signed per viewer)', () => {
    const kept = new SentHere();
    kept.remember(row(1, 5, ['0b7e4a52-3c1d-4a8e-9a51-5d6a1f0c2b3e']));
    expect(kept.take(1, 5)).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('holds at most its bound, the oldest going first (a notification never heard here does not stay)', () => {
    const kept = new SentHere(3);
    for (let seq = 1; seq <= 5; seq++) kept.remember(row(1, seq));
    expect(kept.size).toBe(3);
    expect(kept.take(1, 1)).toBeUndefined();
    expect(kept.take(1, 2)).toBeUndefined();
    expect(kept.take(1, 5)?.seq).toBe(5);
  });
});
