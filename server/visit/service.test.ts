import { describe, expect, it } from 'vitest';
import { visitorHash } from './service.js';

describe('visitorHash', () => {
  const secret = 'a-secret-of-at-least-thirty-two-characters';

  it('is stable for the same visitor on the same day, and short', () => {
    const a = visitorHash(secret, '2026-11-23', '203.0.113.7', 'Firefox');
    expect(visitorHash(secret, '2026-11-23', '203.0.113.7', 'Firefox')).toBe(a);
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('changes with the day, so a visitor cannot be followed across days', () => {
    expect(visitorHash(secret, '2026-11-24', '203.0.113.7', 'Firefox')).not.toBe(
      visitorHash(secret, '2026-11-23', '203.0.113.7', 'Firefox'),
    );
  });

  it('changes with the address, the browser and the secret, and does not contain them', () => {
    const base = visitorHash(secret, '2026-11-23', '203.0.113.7', 'Firefox');
    expect(visitorHash(secret, '2026-11-23', '203.0.113.8', 'Firefox')).not.toBe(base);
    expect(visitorHash(secret, '2026-11-23', '203.0.113.7', 'Chrome')).not.toBe(base);
    expect(visitorHash(`${secret}!`, '2026-11-23', '203.0.113.7', 'Firefox')).not.toBe(base);
    expect(base).not.toContain('203');
  });

  it('keeps address and user agent apart (no ambiguity from concatenation)', () => {
    expect(visitorHash(secret, '2026-11-23', '1.2.3.4', '5 Firefox')).not.toBe(visitorHash(secret, '2026-11-23', '1.2.3.45', ' Firefox'));
  });
});
