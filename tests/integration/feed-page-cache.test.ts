import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import * as notify from '../../migrations/2026-11-24T0300_feed_changed_notify.js';
import * as quiet from '../../migrations/2026-11-24T0600_feed_event_quiets_trigger.js';
import { FEED_PAGE_EVICTIONS, keepFeedPagesFresh } from '../../server/feed/freshness.js';
import { FEED_CHANGED_CHANNEL } from '../../server/feed/page-cache.js';
import { createDeps, listen, type RunningServer } from '../../server/server.js';
import { httpClient, quickClients } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Feed pages are kept in memory between changes (server/feed/page-cache.ts).
 * What must hold: nobody ever reads a page older than a change they could know of.
 */
let server: TestServer;
let second: RunningServer;
let closeSecond: () => Promise<void>;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin' });
  // A second instance on the same database: its own pool and LISTEN connections on Postgres (PGlite: the one in-process database).
  const shared = server.deps.dbHandle as DbHandle & { url?: string };
  const own = shared.url ? connectPostgres(shared.url, 5) : null;
  const deps = await createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0' }), own ?? shared, server.deps.secret);
  second = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  closeSecond = async () => {
    await second.close();
    await own?.close();
  };
});
afterAll(async () => {
  await closeSecond?.();
  await server?.stop();
});

type Item = { id: number; likeCount: number; likedByMe: boolean; likes: number[] };

async function feedOn(baseUrl: string, token: string): Promise<Item[]> {
  const res = await fetch(`${baseUrl}/api/feeds/get-feeds?limit=50`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Item[] }).data;
}
const postIn = (items: Item[], id: number) => items.find((p) => p.id === id);
const toggleOn = (baseUrl: string, c: { token: string; id: number }, feedId: number) =>
  fetch(`${baseUrl}/api/feeds/update-feed`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: c.id, feedId }),
  }).then((r) => r.status);

describe('kept feed pages', () => {
  it('are shared by every viewer, each seeing only their own like', async () => {
    const post = await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Shared page' });
    const [fan, other] = await quickClients(server.deps.db, 2, 'viewer');
    expect(await toggleOn(server.url, fan!, post.id)).toBe(200);
    const [mine, theirs] = await Promise.all([feedOn(server.url, fan!.token), feedOn(server.url, other!.token)]);
    expect(postIn(mine, post.id)).toMatchObject({ likeCount: 1, likedByMe: true, likes: [fan!.id] });
    expect(postIn(theirs, post.id)).toMatchObject({ likeCount: 1, likedByMe: false, likes: [fan!.id] });
    expect(server.deps.feedPages.size()).toBe(1);
  });

  it('let a writer read its own write at once on its instance', async () => {
    const post = await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Read your write' });
    const [fan] = await quickClients(server.deps.db, 1, 'writer');
    expect(postIn(await feedOn(server.url, fan!.token), post.id)).toMatchObject({ likeCount: 0, likedByMe: false });
    expect(server.deps.feedPages.size()).toBe(1);
    expect(await toggleOn(server.url, fan!, post.id)).toBe(200);
    expect(postIn(await feedOn(server.url, fan!.token), post.id)).toMatchObject({ likeCount: 1, likedByMe: true });
  });

  it('are dropped on another instance when the change’s event reaches it', async () => {
    const post = await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Across instances' });
    const [fan] = await quickClients(server.deps.db, 1, 'across');
    await feedOn(second.url, fan!.token);
    expect(second.deps.feedPages.size()).toBe(1);
    expect(await toggleOn(server.url, fan!, post.id)).toBe(200);
    // Evicted by the notification, not by the TTL (which would leave the entry until the next read).
    await expect.poll(() => second.deps.feedPages.size()).toBe(0);
    expect(postIn(await feedOn(second.url, fan!.token), post.id)).toMatchObject({ likeCount: 1, likedByMe: true });
  });

  it('are dropped on every instance when someone changes likes outside the service', async () => {
    const post = await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Written by SQL' });
    const [fan] = await quickClients(server.deps.db, 1, 'sql');
    await Promise.all([feedOn(server.url, fan!.token), feedOn(second.url, fan!.token)]);
    expect([server.deps.feedPages.size(), second.deps.feedPages.size()]).toEqual([1, 1]);
    await server.deps.db.insertInto('feed_likes').values({ post_id: post.id, user_id: fan!.id }).execute();
    await expect.poll(() => [server.deps.feedPages.size(), second.deps.feedPages.size()]).toEqual([0, 0]);
    for (const url of [server.url, second.url]) {
      expect(postIn(await feedOn(url, fan!.token), post.id)).toMatchObject({ likeCount: 1, likedByMe: true });
    }
  });

  it('hear of a like toggle once, from its event: the change trigger stays quiet for it', async () => {
    const post = await httpClient(server.url, admin.token).admin.feed.create.mutate({ desc: 'Announced once' });
    const [fan] = await quickClients(server.deps.db, 1, 'announced');
    const heard: string[] = [];
    const unlisten = await server.deps.dbHandle.listen(FEED_CHANGED_CHANNEL, (payload) => heard.push(payload || 'trigger'));
    try {
      expect(await toggleOn(server.url, fan!, post.id)).toBe(200);
      // Notices arrive in commit order: once this one is heard, any for the toggle would have been too.
      await sql`select pg_notify(${FEED_CHANGED_CHANNEL}, 'after the toggle')`.execute(server.deps.db);
      await expect.poll(() => heard.at(-1)).toBe('after the toggle');
      expect(heard).toEqual(['after the toggle']);
    } finally {
      await unlisten();
    }
  });
});

describe('feed page freshness (server/feed/freshness.ts): one test per eviction source', () => {
  it('names every source this file and page-cache.test.ts test', () => {
    // ownWrite: 'let a writer read its own write'; feedEvent: 'dropped on another instance when the change’s event reaches it'
    // and 'hear of a like toggle once'; changeTrigger: 'dropped on every instance when someone changes likes outside the service'
    // and the migrations below; listenGap: below, and page-cache.test.ts 'bypassed, and emptied'; ttl: page-cache.test.ts 'after its TTL'.
    expect(Object.keys(FEED_PAGE_EVICTIONS).sort()).toEqual(['changeTrigger', 'feedEvent', 'listenGap', 'ownWrite', 'ttl']);
  });

  it('listenGap: pages are dropped when the LISTEN connection comes back (notifications may have been missed)', async () => {
    const [fan] = await quickClients(server.deps.db, 1, 'gap');
    const calls: (() => void)[] = [];
    const handle = {
      async listen(_channel: string, _onPayload: (s: string) => void, onReconnect?: () => void) {
        if (onReconnect) calls.push(onReconnect);
        return async () => {};
      },
    };
    const bus = { subscribe: () => () => {} };
    await feedOn(second.url, fan!.token);
    expect(second.deps.feedPages.size()).toBe(1);
    await keepFeedPagesFresh(second.deps.feedPages, bus as never, handle as never);
    expect(calls).toHaveLength(1);
    calls[0]!();
    expect(second.deps.feedPages.size()).toBe(0);
  });

  it('changeTrigger: the two trigger migrations leave the same triggers in either order', async () => {
    const triggers = (db: typeof server.deps.db) =>
      sql<{ name: string }>`select tgname as name from pg_trigger where tgname like 'feed_changed%' order by tgname`
        .execute(db)
        .then((r) => r.rows.map((row) => row.name));
    const before = await triggers(server.deps.db);
    expect(before).toEqual(['feed_changed_unannounced', 'feed_changed_unannounced']);
    const rollback = new Error('rollback');
    const seen = await server.deps.db
      .transaction()
      .execute(async (trx) => {
        await quiet.down(trx);
        await notify.down(trx);
        await quiet.up(trx); // the later migration first...
        await notify.up(trx); // ...then the earlier one, landing late
        const after = await triggers(trx);
        throw Object.assign(rollback, { after });
      })
      .catch((err: Error & { after?: string[] }) => {
        if (err !== rollback) throw err;
        return err.after;
      });
    expect(seen).toEqual(before);
    expect(await triggers(server.deps.db)).toEqual(before);
  });
});
