import { describe, expect, it } from 'vitest';
import { checkPdfLink, PDF_LINK_TTL_SECONDS, signPdfLink } from './signed-url.js';

const secret = 'a'.repeat(64);
const plan = { id: 12, clientId: 34 };
const now = Date.UTC(2026, 10, 22, 10, 0, 0);

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams) as { exp?: string; sig?: string };

describe('signed PDF links', () => {
  it('opens the plan it was made for until it expires', () => {
    const url = signPdfLink(secret, plan, { now });
    expect(url).toMatch(/^\/api\/diet-plan\/pdf\/12\?exp=\d+&sig=[\w-]{43}$/);
    const q = queryOf(url);
    expect(Number(q.exp)).toBe(now / 1000 + PDF_LINK_TTL_SECONDS);
    expect(checkPdfLink(secret, plan, q, now)).toEqual({ ok: true });
    expect(checkPdfLink(secret, plan, q, now + PDF_LINK_TTL_SECONDS * 1000)).toEqual({ ok: true });
    expect(checkPdfLink(secret, plan, q, now + (PDF_LINK_TTL_SECONDS + 1) * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('prefixes the public origin when one is configured', () => {
    expect(signPdfLink(secret, plan, { now, baseUrl: 'https://poshan.example/' })).toMatch(
      /^https:\/\/poshan\.example\/api\/diet-plan\/pdf\/12\?/,
    );
  });

  it('does not open another plan, another client’s plan, with another secret, or with a changed expiry', () => {
    const q = queryOf(signPdfLink(secret, plan, { now }));
    expect(checkPdfLink(secret, { ...plan, id: 13 }, q, now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkPdfLink(secret, { ...plan, clientId: 35 }, q, now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkPdfLink('b'.repeat(64), plan, q, now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkPdfLink(secret, plan, { ...q, exp: String(Number(q.exp) - 1) }, now)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses malformed links and expiries further ahead than any link is issued', () => {
    const q = queryOf(signPdfLink(secret, plan, { now }));
    for (const bad of [{}, { exp: q.exp }, { sig: q.sig }, { ...q, exp: 'soon' }, { ...q, sig: 'short' }, { ...q, exp: '1e9' }]) {
      expect(checkPdfLink(secret, plan, bad, now)).toEqual({ ok: false, reason: 'malformed' });
    }
    const farAhead = queryOf(signPdfLink(secret, plan, { now, ttlSeconds: 24 * 3600 }));
    expect(checkPdfLink(secret, plan, farAhead, now)).toEqual({ ok: false, reason: 'mismatch' });
  });
});
