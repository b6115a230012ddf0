import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { differingFields, insertOnce, sameRequest } from './idempotent.js';

describe('sameRequest', () => {
  it('passes a repeat whose details mean the same (a Date and its instant, absent and null, equal lists)', () => {
    const at = new Date('2026-11-28T06:00:00Z');
    expect(
      differingFields({
        text: ['Dal and rice', 'Dal and rice'],
        eatenAt: [at, new Date(at.getTime())],
        note: [null, undefined],
        attachmentIds: [
          ['a', 'b'],
          ['a', 'b'],
        ],
      }),
    ).toEqual([]);
    expect(() => sameRequest('clientEntryId', { text: ['x', 'x'] })).not.toThrow();
  });

  it('refuses a repeat with other details: 422, naming each field that differs', () => {
    let caught: unknown;
    try {
      sameRequest('clientMessageId', { text: ['Hello', 'Hello!'], attachmentIds: [['a'], ['a', 'b']], conversationId: [4, 4] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
      message: 'This clientMessageId was already used with different details (text, attachmentIds). Send it with a new key.',
      fieldErrors: { text: [expect.any(String)], attachmentIds: [expect.any(String)] },
    });
  });
});

describe('insertOnce', () => {
  it('checks the first row against the repeat only when the key was used before', async () => {
    const seen: number[] = [];
    const sameAs = (row: number) => seen.push(row);
    expect(await insertOnce({ insert: async () => 1, existing: async () => 1, sameAs })).toEqual({ row: 1, created: true });
    expect(seen).toEqual([]);
    expect(await insertOnce({ insert: async () => undefined, existing: async () => 7, sameAs })).toEqual({ row: 7, created: false });
    expect(seen).toEqual([7]);
  });
});
