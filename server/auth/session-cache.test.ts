import { describe, expect, it } from 'vitest';
import { createGate } from '../../tests/helpers/gate.js';
import type { SessionUser } from './session.js';
import { createSessionCache } from './session-cache.js';

const user = (id: number, expiresAt: number, sessionId = id * 10): SessionUser => ({
  id,
  role: 2,
  email: `u${id}@example.test`,
  firstName: 'U',
  lastName: String(id),
  fullName: `U ${id}`,
  sessionId,
  expiresAt: new Date(expiresAt),
});

/** A cache over a fake database that counts its reads; time is ours to move. */
function setup(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  let clock = 1_000_000;
  const rows = new Map<string, SessionUser | null>();
  const reads: string[] = [];
  const gate = createGate();
  const cache = createSessionCache(
    async (hash) => {
      reads.push(hash);
      await gate.passed();
      return rows.get(hash) ?? null;
    },
    { ttlMs: opts.ttlMs ?? 5_000, maxEntries: opts.maxEntries, now: () => clock },
  );
  return {
    cache,
    rows,
    reads,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
    hold: gate.hold,
  };
}

describe('session cache', () => {
  it('reads the database once per token while cached, and again after the TTL', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    for (let i = 0; i < 5; i++) expect((await t.cache.get('a'))?.id).toBe(1);
    expect(t.reads).toEqual(['a']);
    t.advance(5_001);
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'a']);
  });

  it('shares one read among calls that arrive together', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    const release = t.hold();
    const all = Promise.all([t.cache.get('a'), t.cache.get('a'), t.cache.get('a')]);
    release();
    expect((await all).map((u) => u?.id)).toEqual([1, 1, 1]);
    expect(t.reads).toEqual(['a']);
  });

  it('refuses a cached session from the moment it expires, without a read', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 1_000));
    expect(await t.cache.get('a')).not.toBeNull();
    t.advance(1_000);
    expect(await t.cache.get('a')).toBeNull();
    expect(t.reads).toEqual(['a']);
  });

  it('forgets a user’s sessions at once (revocation), and nobody else’s', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    t.rows.set('b', user(1, t.now() + 3_600_000, 11));
    t.rows.set('c', user(2, t.now() + 3_600_000));
    await Promise.all(['a', 'b', 'c'].map((h) => t.cache.get(h)));
    t.rows.set('a', null);
    t.cache.forgetUser(1);
    expect(await t.cache.get('a')).toBeNull();
    expect((await t.cache.get('b'))?.sessionId).toBe(11);
    expect((await t.cache.get('c'))?.id).toBe(2);
    expect(t.reads.filter((h) => h === 'c')).toEqual(['c']);
  });

  it('does not keep a read that was in flight when the user was forgotten', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    const release = t.hold();
    const stale = t.cache.get('a');
    t.rows.set('a', null); // revoked while the read was under way
    t.cache.forgetUser(1);
    release();
    await stale;
    expect(await t.cache.get('a')).toBeNull();
  });

  it('forgets everything after a reconnect', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    await t.cache.get('a');
    t.cache.forgetAll();
    expect(t.cache.size).toBe(0);
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'a']);
  });

  it('holds at most maxEntries tokens, dropping the least recently used', async () => {
    const t = setup({ maxEntries: 3 });
    for (const h of ['a', 'b', 'c']) t.rows.set(h, user(h.charCodeAt(0), t.now() + 3_600_000));
    for (const h of ['a', 'b', 'c']) await t.cache.get(h);
    await t.cache.get('a'); // a is now the most recent
    await t.cache.get('unknown-1');
    await t.cache.get('unknown-2');
    expect(t.cache.size).toBe(3);
    t.reads.length = 0;
    await t.cache.get('a');
    expect(t.reads).toEqual([]);
    await t.cache.get('b');
    expect(t.reads).toEqual(['b']);
  });

  it('caches nothing of a user whose sessions this process is changing, until the change is announced as committed', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    await t.cache.get('a');
    // The revoking transaction has not committed: a read still sees the session alive, and must not be kept.
    t.cache.holdUser(1);
    expect((await t.cache.get('a'))?.id).toBe(1);
    t.rows.set('a', null); // committed
    expect(await t.cache.get('a')).toBeNull();
    expect(t.reads).toEqual(['a', 'a', 'a']);
    // The notification arrives: caching resumes.
    t.cache.forgetUser(1);
    t.rows.set('b', user(1, t.now() + 3_600_000));
    await t.cache.get('b');
    await t.cache.get('b');
    expect(t.reads).toEqual(['a', 'a', 'a', 'b']);
  });

  it('caches a held user again after the TTL if the change never commits (rolled back)', async () => {
    const t = setup();
    t.rows.set('a', user(1, t.now() + 3_600_000));
    t.cache.holdUser(1);
    await t.cache.get('a');
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'a']);
    t.advance(5_001);
    await t.cache.get('a');
    await t.cache.get('a');
    expect(t.reads).toEqual(['a', 'a', 'a']);
  });
});
