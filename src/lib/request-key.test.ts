import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../server/validation';
import { newRequestKey } from './request-key';

const valid = (key: string) => idempotencyKey('key').safeParse(key).success;

describe('newRequestKey', () => {
  it('makes a UUID the server accepts', () => {
    expect(valid(newRequestKey())).toBe(true);
  });

  it('makes one where crypto.randomUUID is missing (a plain-HTTP page)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => newRequestKey()));
      expect(keys.size).toBe(50);
      for (const key of keys) expect(valid(key)).toBe(true);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true, writable: true });
    }
  });
});
