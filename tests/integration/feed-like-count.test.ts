import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { httpClient, quickClients } from '../helpers/callers.js';
import { toggleLike } from '../../server/feed/repo.js';

/**
 * A post keeps its like count (a trigger on feed_likes, same
 * transaction), and like toggles wait only for other writes to the same post.
 */
let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin' });
});
afterAll(() => server?.stop());

const toggle = (token: string, id: number, feedId: number) =>
  server.request('PUT', '/api/feeds/update-feed', { token, body: { id, feedId } });
const newPost = (desc: string) => httpClient(server.url, admin.token).admin.feed.create.mutate({ desc });

async function keptAndCounted(postId: number) {
  const kept = await server.deps.db.selectFrom('feed_posts').select('like_count').where('id', '=', postId).executeTakeFirstOrThrow();
  const rows = await server.deps.db
    .selectFrom('feed_likes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return { kept: kept.like_count, counted: Number(rows.n) };
}

/** Another writer locks a post's row, as a concurrent write would; it holds it until `release()`, and `holder` settles after. */
async function holdPostRow(postId: number) {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => {
    locked = r;
  });
  const holder = server.deps.db.transaction().execute(async (trx) => {
    await sql`select id from feed_posts where id = ${postId} for update`.execute(trx);
    locked();
    await released;
  });
  await isLocked;
  return { release, holder };
}

describe('the kept like count', () => {
  it('equals the rows after many clients toggle several posts at once, and every answer is the count at its commit', async () => {
    const posts = await Promise.all([newPost('One'), newPost('Two'), newPost('Three')]);
    const clients = await quickClients(server.deps.db, 12, 'toggler');
    const answers = await Promise.all(
      clients.flatMap((c, i) => [0, 1, 2].map((n) => toggle(c.token, c.id, posts[(i + n) % posts.length]!.id))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    for (const post of posts) {
      const { kept, counted } = await keptAndCounted(post.id);
      expect(kept).toBe(counted);
      expect(kept).toBe(12);
      // Toggles of one post take turns: its answers saw the counts 1..12, each once.
      const seen = answers
        .map((a) => a.body.data)
        .filter((d) => d.feedId === post.id)
        .map((d) => d.likeCount);
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    }
    const listed = await server.request('GET', '/api/feeds/get-feeds?limit=50', { token: clients[0]!.token });
    for (const post of posts) expect(listed.body.data.find((p: { id: number }) => p.id === post.id).likeCount).toBe(12);
  });

  it('follows likes written by anyone: rows inserted directly, and a removed account’s likes', async () => {
    const post = await newPost('Counted by the database');
    const fans = await quickClients(server.deps.db, 5, 'direct');
    await server.deps.db
      .insertInto('feed_likes')
      .values(fans.map((f) => ({ post_id: post.id, user_id: f.id })))
      .execute();
    expect(await keptAndCounted(post.id)).toEqual({ kept: 5, counted: 5 });
    await server.deps.db.deleteFrom('users').where('id', '=', fans[0]!.id).execute();
    expect(await keptAndCounted(post.id)).toEqual({ kept: 4, counted: 4 });
    // Removing the post takes its likes with it.
    await httpClient(server.url, admin.token).admin.feed.remove.mutate({ id: post.id });
    expect(await server.deps.db.selectFrom('feed_likes').select('user_id').where('post_id', '=', post.id).execute()).toEqual([]);
  });
});

describe('like toggles on different posts', () => {
  it('do not wait for a write that holds another post', async (ctx) => {
    // PGlite has one connection: every transaction waits for the one before it there.
    if (server.deps.dbHandle.kind !== 'postgres') ctx.skip();
    const [held, free] = await Promise.all([newPost('Held'), newPost('Free')]);
    const [c1, c2] = await quickClients(server.deps.db, 2, 'parallel');
    // Another writer holds the first post's row until we let go.
    const { release, holder } = await holdPostRow(held.id);
    const waiting = toggle(c1!.token, c1!.id, held.id);
    try {
      // The held post's toggle waits; the other post's toggle must not wait behind it.
      const other = await Promise.race([
        toggle(c2!.token, c2!.id, free.id),
        new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), 5000)),
      ]);
      expect(other).not.toBe('blocked');
      expect((other as { body: { data: { likeCount: number } } }).body.data.likeCount).toBe(1);
    } finally {
      release();
      await holder;
    }
    expect((await waiting).body.data.likeCount).toBe(1);
  });
});

describe('a crowd liking one post', () => {
  it('waits its turn in the instance, on one pooled connection, so other requests still get theirs', async (ctx) => {
    if (server.deps.dbHandle.kind !== 'postgres') ctx.skip();
    const post = await newPost('Everyone at once');
    const crowd = await quickClients(server.deps.db, 10, 'crowd-one-post');
    const reader = crowd[0]!;
    // A writer holds the post's row (one of the test pool's five connections) until we let go.
    const { release, holder } = await holdPostRow(post.id);
    const toggles = crowd.map((c) => toggle(c.token, c.id, post.id));
    // Sessions of this database waiting on a lock: the toggles stuck behind the held row.
    const waitingOnRow = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(server.deps.db);
      return rows[0]!.n;
    };
    try {
      // The first toggle is in the database, waiting on the row lock...
      await expect.poll(waitingOnRow, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      // ...and a read still gets a connection at once: the other nine wait in memory, not on the pool.
      const read = await server.request('GET', '/api/feeds/get-feeds?limit=5', { token: reader.token });
      expect(read.status).toBe(200);
      expect(await waitingOnRow()).toBe(1);
    } finally {
      release();
      await holder;
    }
    const answers = await Promise.all(toggles);
    expect(answers.map((a) => a.status)).toEqual(crowd.map(() => 200));
    expect(answers.map((a) => a.body.data.likeCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await keptAndCounted(post.id)).toEqual({ kept: 10, counted: 10 });
  });
});

describe('one user toggling one post from two instances at once', () => {
  // Instances take turns per post only among their own requests: these two statements race as two instances' would.
  const raceTwo = async (postId: number, userId: number) => {
    const { release, holder } = await holdPostRow(postId);
    const waitingOnRow = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(server.deps.db);
      return rows[0]!.n;
    };
    const racing = [toggleLike(server.deps.db, postId, userId, Date.now()), toggleLike(server.deps.db, postId, userId, Date.now())];
    try {
      // Both statements have their snapshot and wait for the row.
      await expect.poll(waitingOnRow, { timeout: 10_000 }).toBe(2);
    } finally {
      release();
      await holder;
    }
    return Promise.all(racing);
  };

  it('a like added while the other waited is not added twice: that one changes nothing, and run again takes it back', async (ctx) => {
    if (server.deps.dbHandle.kind !== 'postgres') ctx.skip();
    const post = await newPost('Raced like');
    const [c] = await quickClients(server.deps.db, 1, 'race-add');
    const outcomes = await raceTwo(post.id, c!.id);
    const changed = outcomes.filter((o) => o.found && o.changed);
    expect(changed).toEqual([{ found: true, changed: true, liked: true, likeCount: 1, eventId: expect.any(Number) }]);
    expect(outcomes.filter((o) => o.found && !o.changed)).toEqual([{ found: true, changed: false }]);
    expect(await keptAndCounted(post.id)).toEqual({ kept: 1, counted: 1 });
    // What the service does with "nothing changed": the same statement again, which now sees the like.
    expect(await toggleLike(server.deps.db, post.id, c!.id, Date.now())).toMatchObject({ changed: true, liked: false, likeCount: 0 });
    expect(await keptAndCounted(post.id)).toEqual({ kept: 0, counted: 0 });
    // Only the changes were logged, each with its count.
    const logged = await server.deps.db
      .selectFrom('feed_events')
      .select(['like_count', 'liked'])
      .where('post_id', '=', post.id)
      .where('kind', '=', 'like.changed')
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { like_count: 1, liked: true },
      { like_count: 0, liked: false },
    ]);
  });

  it('a like taken back while the other waited is added again: both change, in turn, with exact counts', async (ctx) => {
    if (server.deps.dbHandle.kind !== 'postgres') ctx.skip();
    const post = await newPost('Raced unlike');
    const [c] = await quickClients(server.deps.db, 1, 'race-remove');
    await toggle(c!.token, c!.id, post.id);
    const outcomes = await raceTwo(post.id, c!.id);
    const inTurn = outcomes.flatMap((o) => (o.found && o.changed ? [o] : [])).sort((a, b) => a.eventId - b.eventId);
    expect(inTurn.map((o) => [o.liked, o.likeCount])).toEqual([
      [false, 0],
      [true, 1],
    ]);
    expect(await keptAndCounted(post.id)).toEqual({ kept: 1, counted: 1 });
  });

  it('a post that does not exist is not found, and nothing is logged', async () => {
    const [c] = await quickClients(server.deps.db, 1, 'race-none');
    const before = await server.deps.db
      .selectFrom('feed_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    expect(await toggleLike(server.deps.db, 2_000_000_000, c!.id, Date.now())).toEqual({ found: false });
    const after = await server.deps.db
      .selectFrom('feed_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    expect(after?.id).toEqual(before?.id);
  });
});
