import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { loadConfig } from '../../server/env.js';
import { feedEventStream } from '../../server/feed/events.js';
import type { FeedEvent } from '../../server/feed/schema.js';
import { createFeedBus, DELIVER_BATCH, type FeedBusMessage } from '../../server/feed/bus.js';
import { FEED_CHANNEL } from '../../server/feed/event-log.js';
import { createDeps, listen } from '../../server/server.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { httpClient, percentile, quickClients, recordFeed, wsClient } from '../helpers/callers.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let asAdmin: ReturnType<typeof httpClient>;
const openSockets: ReturnType<typeof wsClient>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([server.user(), server.user(), server.user({ role: 'admin' })]);
  asAdmin = httpClient(server.url, admin.token);
});
afterEach(async () => {
  await Promise.all(openSockets.splice(0).map((s) => s.close()));
});
afterAll(() => server?.stop());

function connect(baseUrl: string, token?: string, opts?: Parameters<typeof wsClient>[2]) {
  const socket = wsClient(baseUrl, token, opts);
  openSockets.push(socket);
  return socket;
}

const toggleLike = (base: TestServer | { url: string }, user: { id: number; token: string }, feedId: number) =>
  fetch(`${base.url}/api/feeds/update-feed`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: user.id, feedId }),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

const likeOf = (postId: number) => (e: FeedEvent) => e.kind === 'like.changed' && e.postId === postId;
const newPost = async (desc: string) => (await asAdmin.admin.feed.create.mutate({ desc })).id;

describe('feed.events: who may subscribe', () => {
  it.each([
    ['no token', undefined],
    ['an unknown token', 'not-a-real-session-token'],
  ])('refuses a socket with %s (UNAUTHORIZED) and sends it nothing', async (_label, token) => {
    const feed = recordFeed(connect(server.url, token).client);
    const err = await feed.error();
    expect(err.data?.code).toBe('UNAUTHORIZED');
    expect(feed.received).toEqual([]);
  });

  it('stops listening to the bus when the subscriber leaves', async () => {
    const bus = server.deps.feedBus;
    const original = bus.subscribe;
    let active = 0;
    bus.subscribe = (listener) => {
      active += 1;
      const off = original(listener);
      return () => {
        active -= 1;
        off();
      };
    };
    try {
      const socket = connect(server.url, bob.token);
      const feeds = [recordFeed(socket.client), recordFeed(socket.client)];
      await Promise.all(feeds.map((f) => f.ready()));
      // The channel listens once for all its subscribers, and lets go when the last one leaves.
      expect(server.deps.feedLive.size).toBe(2);
      expect(active).toBe(1);
      feeds[0]!.unsubscribe();
      await expect.poll(() => server.deps.feedLive.size).toBe(1);
      await socket.close();
      await expect.poll(() => server.deps.feedLive.size).toBe(0);
      expect(active).toBe(0);
    } finally {
      bus.subscribe = original;
    }
  });
});

describe('feed.events: live changes', () => {
  it('a like by client A reaches client B; only A learns likedByMe', async () => {
    const postId = await newPost('Live like');
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    const aliceFeed = recordFeed(connect(server.url, alice.token).client);
    await Promise.all([bobFeed.ready(), aliceFeed.ready()]);

    const res = await toggleLike(server, alice, postId);
    expect(res.body.data).toEqual({ feedId: postId, liked: true, likeCount: 1 });

    const seenByBob = await bobFeed.next(likeOf(postId));
    expect(seenByBob.event).toEqual({ kind: 'like.changed', postId, likeCount: 1 });
    const seenByAlice = await aliceFeed.next(likeOf(postId));
    expect(seenByAlice.event).toEqual({ kind: 'like.changed', postId, likeCount: 1, likedByMe: true });
    expect(Number(seenByBob.id)).toBeGreaterThan(0);
    expect(seenByAlice.id).toBe(seenByBob.id);
  });

  it('new, edited and removed posts reach subscribers in the shape feed.list uses', async () => {
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    await bobFeed.ready();
    const created = await asAdmin.admin.feed.create.mutate({ desc: 'Fresh post\nwith two lines' });
    const onCreate = await bobFeed.next((e) => e.kind === 'post.created' && e.postId === created.id);
    expect(onCreate.event).toEqual({ kind: 'post.created', postId: created.id, post: created });

    await toggleLike(server, bob, created.id);
    await bobFeed.next(likeOf(created.id));
    const edited = await asAdmin.admin.feed.update.mutate({ id: created.id, desc: 'Edited post' });
    const onEdit = await bobFeed.next((e) => e.kind === 'post.updated' && e.postId === created.id);
    // The post as Bob sees it: his own like included.
    expect(onEdit.event).toEqual({ kind: 'post.updated', postId: created.id, post: { ...edited, likedByMe: true } });
    const listed = await httpClient(server.url, bob.token).feed.list.query({ limit: 1 });
    expect(listed.items[0]).toEqual((onEdit.event as { post: unknown }).post);

    await asAdmin.admin.feed.remove.mutate({ id: created.id });
    const onRemove = await bobFeed.next((e) => e.kind === 'post.deleted');
    expect(onRemove.event).toEqual({ kind: 'post.deleted', postId: created.id });
  });

  it('reaches a subscriber that is not on a WebSocket through the stream itself', async () => {
    const p = await newPost('Not on a socket');
    const leave = new AbortController();
    const stream = feedEventStream(server.deps, { viewer: bob.id, signal: leave.signal });
    try {
      expect((await stream.next()).value?.[1]).toEqual({ kind: 'ready' });
      const next = stream.next();
      await toggleLike(server, alice, p);
      expect((await next).value?.[1]).toEqual({ kind: 'like.changed', postId: p, likeCount: 1 });
    } finally {
      leave.abort();
      await stream.return();
    }
  });

  it('keeps each subscriber’s events in order when one needs the database and the next does not', async () => {
    const p = await newPost('Shown from the database');
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    await bobFeed.ready();
    const from = bobFeed.received.length;
    // Two events committed together: an edit (its view reads the post) and a like (its view needs nothing),
    // so the second is ready to send while the first still waits for the database.
    const [edit, like] = await server.deps.db.transaction().execute(async (trx) => {
      const rows = [];
      for (const kind of ['post.updated', 'like.changed'] as const) {
        const row = await trx
          .insertInto('feed_events')
          .values({ kind, post_id: p, actor_id: alice.id, like_count: kind === 'like.changed' ? 7 : null })
          .returning('id')
          .executeTakeFirstOrThrow();
        const extra = kind === 'like.changed' ? { likeCount: 7, liked: true } : {};
        const payload = JSON.stringify({ eventId: Number(row.id), kind, postId: p, actorId: alice.id, ...extra });
        await sql`select pg_notify(${FEED_CHANNEL}, ${payload})`.execute(trx);
        rows.push(Number(row.id));
      }
      return rows;
    });
    await bobFeed.next(likeOf(p), { from });
    expect(bobFeed.received.slice(from).map((r) => [Number(r.id), r.event.kind])).toEqual([
      [edit, 'post.updated'],
      [like, 'like.changed'],
    ]);
  });

  it('replays, in order, an event whose notification this instance missed', async () => {
    const [p, q] = [await newPost('Missed'), await newPost('Noticed')];
    await toggleLike(server, bob, p);
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    await bobFeed.ready();
    const from = bobFeed.received.length;
    // A write whose NOTIFY never arrived (as while a LISTEN connection is down)...
    await server.deps.db.insertInto('feed_events').values({ kind: 'like.changed', post_id: p, actor_id: bob.id }).execute();
    // ...is noticed by the hole in the ids when the next event arrives.
    await toggleLike(server, alice, q);
    await bobFeed.next(likeOf(q), { from });
    const events = bobFeed.received.slice(from).map((r) => r.event);
    expect(events).toEqual([
      { kind: 'like.changed', postId: p, likeCount: 1, likedByMe: true },
      { kind: 'like.changed', postId: q, likeCount: 1 },
    ]);
  });
});

describe('feed.events: a fresh subscriber', () => {
  it('does not replay an event that was already in the log when it subscribed, even if its notification comes late', async () => {
    const p = await newPost('Late notice');
    const q = await newPost('On time');
    // An event committed just before Bob subscribes, whose NOTIFY has not reached this instance yet...
    const late = await server.deps.db
      .insertInto('feed_events')
      .values({ kind: 'like.changed', post_id: p, actor_id: alice.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    await bobFeed.ready();
    const from = bobFeed.received.length;
    // ...arrives now; Bob's list (loaded on 'ready') already reflects it.
    const payload = JSON.stringify({
      eventId: Number(late.id),
      kind: 'like.changed',
      postId: p,
      actorId: alice.id,
      likeCount: 0,
      liked: false,
    });
    await sql`select pg_notify(${FEED_CHANNEL}, ${payload})`.execute(server.deps.db);
    await toggleLike(server, alice, q);
    await bobFeed.next(likeOf(q), { from });
    expect(bobFeed.received.slice(from).map((r) => r.event)).toEqual([{ kind: 'like.changed', postId: q, likeCount: 1 }]);
  });
});

describe('feed.events: after sign-out', () => {
  it('stops sending to a socket whose session was signed out', async () => {
    const carol = await server.user();
    const post = await newPost('After sign-out');
    const carolFeed = recordFeed(connect(server.url, carol.token).client);
    await carolFeed.ready();
    const from = carolFeed.received.length;
    const out = await server.request('PUT', '/api/auth/sign-out', { token: carol.token });
    expect(out.status).toBe(200);
    await toggleLike(server, alice, post);
    const err = await carolFeed.error();
    expect(err.data?.code).toBe('UNAUTHORIZED');
    expect(carolFeed.received.slice(from)).toEqual([]);
  });
});

describe('the feed bus', () => {
  it('tells many listeners every event in order, batch after batch: the first batch’s work runs before the last is told', async () => {
    const posts = [await newPost('Batch one'), await newPost('Batch two'), await newPost('Batch three')];
    const count = 617;
    expect(DELIVER_BATCH).toBeLessThan(count / 2);
    const heard = Array.from({ length: count }, () => [] as number[]);
    /** For each event, whether the last listener had heard it when the first listener's follow-up work ran. */
    const lastHadHeard: boolean[] = [];
    const ours = (m: FeedBusMessage) => m.kind === 'like.changed' && posts.includes(m.postId);
    const first = server.deps.feedBus.subscribe((m) => {
      if (ours(m)) queueMicrotask(() => lastHadHeard.push(heard.at(-1)!.includes(m.eventId)));
    });
    const offs = heard.map((list) => server.deps.feedBus.subscribe((m) => ours(m) && list.push(m.eventId)));
    try {
      for (const p of posts) expect((await toggleLike(server, bob, p)).status).toBe(200);
      await expect.poll(() => heard.every((l) => l.length >= posts.length)).toBe(true);
      for (const list of heard) {
        expect(list).toHaveLength(posts.length);
        expect([...list].sort((a, b) => a - b)).toEqual(list);
      }
      expect(new Set(heard.map((l) => l.join(','))).size).toBe(1);
      expect(lastHadHeard).toEqual(posts.map(() => false));
    } finally {
      for (const off of offs) off();
      first();
    }
  });

  it('finds an event whose notification never came, even when no later event arrives', async () => {
    const postId = await newPost('Quiet');
    const bus = createFeedBus(server.deps.dbHandle, (err) => console.error(err), { logCheckMs: 100, logCheckGraceSeconds: 1 });
    await bus.start();
    const got: FeedBusMessage[] = [];
    bus.subscribe((m) => got.push(m));
    try {
      const lost = await server.deps.db
        .insertInto('feed_events')
        .values({ kind: 'post.updated', post_id: postId, actor_id: admin.id, created_at: sql<Date>`now() - interval '2 seconds'` })
        .returning('id')
        .executeTakeFirstOrThrow();
      await expect
        .poll(() => got, { timeout: 5000 })
        .toEqual([{ eventId: Number(lost.id), kind: 'post.updated', postId, actorId: admin.id }]);
    } finally {
      await bus.stop();
      // Let this server's own bus take in the same hole now, while no later test is listening.
      await newPost('Quiet, after');
    }
  });
});

describe('feed.events: catching up', () => {
  it('after a dropped connection the client reconnects by itself and is replayed what it missed', async () => {
    const [p, q] = [await newPost('Away P'), await newPost('Away Q')];
    const network = { open: true, failed: 0 };
    const socket = connect(server.url, bob.token, { network });
    const bobFeed = recordFeed(socket.client);
    const firstReady = await bobFeed.ready(1);

    network.open = false;
    socket.dropConnection();
    // While Bob is away (his client keeps trying to reconnect):
    for (let i = 0; i < 3; i++) await toggleLike(server, alice, p);
    await toggleLike(server, alice, q);
    const created = await asAdmin.admin.feed.create.mutate({ desc: 'Posted while you were away' });
    // A few reconnection attempts have failed meanwhile.
    await vi.waitFor(() => expect(network.failed).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(bobFeed.received.at(-1)).toBe(firstReady);
    network.open = true;

    const secondReady = await bobFeed.ready(2, 10_000);
    const i1 = bobFeed.received.indexOf(firstReady);
    const i2 = bobFeed.received.indexOf(secondReady);
    const replay = bobFeed.received.slice(i1 + 1, i2);
    // Replayed before 'ready', every like change as it was sent live (counts as published), ids rising.
    expect(replay.map((r) => r.event)).toEqual([
      { kind: 'like.changed', postId: p, likeCount: 1 },
      { kind: 'like.changed', postId: p, likeCount: 0 },
      { kind: 'like.changed', postId: p, likeCount: 1 },
      { kind: 'like.changed', postId: q, likeCount: 1 },
      { kind: 'post.created', postId: created.id, post: created },
    ]);
    const ids = replay.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number(firstReady.id));
    expect(secondReady.id).toBe(String(ids.at(-1)));

    // And it is live again.
    await toggleLike(server, alice, q);
    expect((await bobFeed.next(likeOf(q), { from: i2 })).event).toEqual({ kind: 'like.changed', postId: q, likeCount: 0 });
  });

  it('an unknown, foreign or pruned position gets a resync, then live events', async () => {
    const latest = Number(
      (
        await server.deps.db
          .selectFrom('feed_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id,
    );
    const socket = connect(server.url, bob.token);
    for (const lastEventId of ['abc', String(latest + 1000), '-1']) {
      const feed = recordFeed(socket.client, lastEventId);
      await feed.ready();
      expect(feed.received.map((r) => r.event.kind)).toEqual(['resync', 'ready']);
      expect(feed.received[0]!.id).toBe(String(latest));
      feed.unsubscribe();
    }
    // An older position whose event has been pruned since.
    const older = await server.deps.db
      .selectFrom('feed_events')
      .select('id')
      .orderBy('id', 'desc')
      .offset(1)
      .limit(1)
      .executeTakeFirstOrThrow();
    const pruned = await server.deps.db.deleteFrom('feed_events').where('id', '=', older.id).returning('id').executeTakeFirstOrThrow();
    const feed = recordFeed(socket.client, String(pruned.id));
    await feed.ready();
    expect(feed.received.map((r) => r.event.kind)).toEqual(['resync', 'ready']);
  });

  it('more missed events than are replayed gets a resync', async () => {
    const postId = await newPost('Busy');
    const start = await toggleLike(server, alice, postId);
    expect(start.status).toBe(200);
    const position = Number(
      (
        await server.deps.db
          .selectFrom('feed_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id,
    );
    await server.deps.db
      .insertInto('feed_events')
      .values(Array.from({ length: 501 }, () => ({ kind: 'like.changed' as const, post_id: postId, actor_id: alice.id })))
      .execute();
    await toggleLike(server, alice, postId); // the bus sees the hole now, while nobody listens
    const feed = recordFeed(connect(server.url, bob.token).client, String(position));
    await feed.ready();
    expect(feed.received.map((r) => r.event.kind)).toEqual(['resync', 'ready']);
  });
});

describe('50 parallel toggles by 50 different clients', () => {
  it('leave likeCount equal to the number of rows, and every subscriber sees the counts in order', async () => {
    const postId = await newPost('Everyone like this');
    const fans = await quickClients(server.deps.db, 50, 'crowd');
    const bobFeed = recordFeed(connect(server.url, bob.token).client);
    await bobFeed.ready();
    const from = bobFeed.received.length;

    const likes = await Promise.all(fans.map((f) => toggleLike(server, f, postId)));
    expect(likes.map((r) => r.status)).toEqual(fans.map(() => 200));
    expect(likes.every((r) => r.body.data.liked === true)).toBe(true);
    // Toggles are serialised, so each saw a distinct count: 1..50.
    expect(likes.map((r) => r.body.data.likeCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const rows = await server.deps.db.selectFrom('feed_likes').select('user_id').where('post_id', '=', postId).execute();
    expect(rows).toHaveLength(50);
    const [listed] = (await httpClient(server.url, bob.token).feed.list.query({ limit: 50 })).items.filter((p) => p.id === postId);
    expect(listed).toMatchObject({ likeCount: 50, likedByMe: false });
    expect(listed!.likes.sort((a, b) => a - b)).toEqual(fans.map((f) => f.id).sort((a, b) => a - b));

    await bobFeed.next((e) => likeOf(postId)(e) && e.kind === 'like.changed' && e.likeCount === 50, { from });
    const counts = bobFeed.received
      .slice(from)
      .map((r) => r.event)
      .filter(likeOf(postId))
      .map((e) => (e as { likeCount: number }).likeCount);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const unlikes = await Promise.all(fans.map((f) => toggleLike(server, f, postId)));
    expect(unlikes.every((r) => r.status === 200 && r.body.data.liked === false)).toBe(true);
    expect(unlikes.map((r) => r.body.data.likeCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const after = await server.deps.db.selectFrom('feed_likes').select('user_id').where('post_id', '=', postId).execute();
    expect(after).toHaveLength(0);
    const last = await bobFeed.next((e) => likeOf(postId)(e) && e.kind === 'like.changed' && e.likeCount === 0, { from });
    expect(bobFeed.received.at(-1)).toBe(last);
  });
});

describe('two server instances on one database', () => {
  let second: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    // A second process would open its own connections to the same database: so do we (PGlite: share the one in-process database).
    const shared = server.deps.dbHandle as DbHandle & { url?: string };
    const own = shared.url ? connectPostgres(shared.url, 5) : null;
    const deps = await createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0' }), own ?? shared, server.deps.secret);
    const running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
    second = {
      url: running.url,
      async stop() {
        await running.close();
        await own?.close();
      },
    };
  });
  afterAll(() => second?.stop());

  it('an event made through instance 1 reaches subscribers on both instances (latency measured)', async () => {
    const postId = await newPost('Across instances');
    const onSecond = recordFeed(connect(second.url, bob.token).client);
    const onFirst = recordFeed(connect(server.url, alice.token).client);
    await Promise.all([onSecond.ready(), onFirst.ready()]);

    const rounds = 20;
    const toSecond: number[] = [];
    const toFirst: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const [fromSecond, fromFirst] = [onSecond.received.length, onFirst.received.length];
      const sent = performance.now();
      const res = await toggleLike(server, alice, postId);
      const expected = res.body.data.likeCount;
      const there = await onSecond.next(likeOf(postId), { from: fromSecond });
      const here = await onFirst.next(likeOf(postId), { from: fromFirst });
      expect(there.event).toEqual({ kind: 'like.changed', postId, likeCount: expected });
      expect(here.event).toEqual({ kind: 'like.changed', postId, likeCount: expected, likedByMe: expected === 1 });
      toSecond.push(there.at - sent);
      toFirst.push(here.at - sent);
    }
    // And the other way round: a post made through instance 2 reaches instance 1.
    const viaSecond = await httpClient(second.url, admin.token).admin.feed.create.mutate({ desc: 'From instance 2' });
    expect((await onFirst.next((e) => e.kind === 'post.created' && e.postId === viaSecond.id)).event).toMatchObject({
      post: { id: viaSecond.id, desc: 'From instance 2' },
    });

    const fmt = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `median ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms`;
    };
    console.log(
      `[feed latency, ${server.deps.dbHandle.kind}] like sent to instance 1 → event received (${rounds} rounds): ` +
        `subscriber on instance 2: ${fmt(toSecond)}; subscriber on instance 1: ${fmt(toFirst)}`,
    );
    expect(
      percentile(
        [...toSecond].sort((a, b) => a - b),
        50,
      ),
    ).toBeLessThan(1000);
  });
});
