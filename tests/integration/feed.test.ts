import { TRPCClientError } from '@trpc/client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '../../server/brand.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { httpClient, quickClients } from '../helpers/callers.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let asAdmin: ReturnType<typeof httpClient>;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([
    server.user({ firstName: 'Alice', lastName: 'Rao' }),
    server.user({ firstName: 'Bob', lastName: 'Das' }),
    server.user({ role: 'admin' }),
  ]);
  asAdmin = httpClient(server.url, admin.token);
});
afterAll(() => server?.stop());

const getFeeds = (token: string | undefined, query = '') => server.request('GET', `/api/feeds/get-feeds${query}`, { token });
const toggle = (token: string | undefined, body: unknown) => server.request('PUT', '/api/feeds/update-feed', { token, body });
const viewLikes = (token: string | undefined, query: string) => server.request('GET', `/api/feeds/view-likes${query}`, { token });

/** The tRPC error code of a failed call. */
async function codeOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    if (err instanceof TRPCClientError) return { code: err.data?.code as string, message: err.message };
    throw err;
  }
  throw new Error('the call succeeded');
}

/** Posts with chosen creation moments, straight into the table (the admin API stamps now()). */
async function insertPostsAt(moments: string[]) {
  const rows = await server.deps.db
    .insertInto('feed_posts')
    .values(moments.map((m, i) => ({ author_id: admin.id, description: `Post at ${m} #${i}`, created_at: m })))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

async function allPages(token: string, limit: number) {
  const ids: number[] = [];
  let query = `?limit=${limit}`;
  for (let page = 0; page < 100; page++) {
    const res = await getFeeds(token, query);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((p: { id: number }) => p.id));
    const next = res.body.nextCursor;
    if (!next) return ids;
    query = `?limit=${limit}&cursor=${encodeURIComponent(next)}`;
  }
  throw new Error('paging never ended');
}

describe('GET /api/feeds/get-feeds', () => {
  it('answers an empty feed with the spec’s empty text', async () => {
    const res = await getFeeds(alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: 'No updated feed', data: [], nextCursor: null });
  });

  it('lists posts newest first in the spec’s shape, with the admin display name', async () => {
    const first = await asAdmin.admin.feed.create.mutate({ desc: 'Drink water before meals.' });
    const second = await asAdmin.admin.feed.create.mutate({ desc: 'Line one\r\nLine two\n\nLine four' });
    expect(second.desc).toBe('Line one\nLine two\n\nLine four');
    const res = await getFeeds(alice.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Feeds loaded');
    expect(res.body.data.slice(0, 2).map((p: { id: number }) => p.id)).toEqual([second.id, first.id]);
    expect(res.body.data[1]).toEqual({
      id: first.id,
      desc: 'Drink water before meals.',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      likes: [],
      likeCount: 0,
      likedByMe: false,
      author: { name: BRAND.adminDisplayName },
    });
  });

  it('pages with a cursor on (created_at, id): equal and microsecond-apart moments are neither skipped nor repeated', async () => {
    const ids = await insertPostsAt([
      '2020-01-01T00:00:00.000001Z',
      '2020-01-01T00:00:00.000001Z',
      '2020-01-01T00:00:00.000001Z',
      '2020-01-01T00:00:00.000002Z',
      '2020-01-01T00:00:00.000900Z',
      '2020-01-01T00:00:00.000900Z',
      '2019-12-31T23:59:59.999999Z',
    ]);
    const expected = (
      await server.deps.db.selectFrom('feed_posts').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
    ).map((r) => r.id);
    for (const limit of [1, 2, 3, 50]) expect(await allPages(alice.token, limit)).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining(ids));
  });

  it.each([
    ['?limit=0', 'limit must be between 1 and 50'],
    ['?limit=51', 'limit must be between 1 and 50'],
    ['?limit=abc', 'limit must be a number'],
    ['?limit=2.5', 'limit must be a whole number'],
    ['?cursor=yesterday', 'cursor is not valid: pass the nextCursor of the previous page'],
  ])('refuses %s with 400 "%s"', async (query, message) => {
    const res = await getFeeds(alice.token, query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(Object.values(res.body.data.fieldErrors).flat()).toContain(message);
  });

  it('treats empty query values as not given', async () => {
    const res = await getFeeds(alice.token, '?limit=&cursor=');
    expect(res.status).toBe(200);
  });

  it('refuses without a token', async () => {
    const res = await getFeeds(undefined);
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(401);
  });
});

describe('PUT /api/feeds/update-feed', () => {
  let postId: number;
  beforeAll(async () => {
    postId = (await asAdmin.admin.feed.create.mutate({ desc: 'Like me' })).id;
  });

  it('likes, then takes the like back; the count follows the rows', async () => {
    const liked = await toggle(alice.token, { id: alice.id, feedId: postId });
    expect(liked.status).toBe(200);
    expect(liked.body).toEqual({ status: 200, message: 'You liked this post', data: { feedId: postId, liked: true, likeCount: 1 } });
    const bobLikes = await toggle(bob.token, { id: String(bob.id), feedId: String(postId) });
    expect(bobLikes.body.data).toEqual({ feedId: postId, liked: true, likeCount: 2 });

    const feed = await getFeeds(alice.token, '?limit=50');
    const post = feed.body.data.find((p: { id: number }) => p.id === postId);
    expect(post).toMatchObject({ likeCount: 2, likedByMe: true });
    expect(post.likes.sort()).toEqual([alice.id, bob.id].sort());

    const unliked = await toggle(alice.token, { id: alice.id, feedId: postId });
    expect(unliked.body).toEqual({ status: 200, message: 'You took back your like', data: { feedId: postId, liked: false, likeCount: 1 } });
    const rows = await server.deps.db.selectFrom('feed_likes').selectAll().where('post_id', '=', postId).execute();
    expect(rows.map((r) => r.user_id)).toEqual([bob.id]);
  });

  it.each([
    [{ feedId: 1 }, 'id is required'],
    [{ id: 'me', feedId: 1 }, 'id must be a number'],
    [{ id: 1 }, 'feedId is required'],
    [{ id: 1, feedId: -4 }, 'feedId must be a positive number'],
    [{ id: 1, feedId: 1.5 }, 'feedId must be a whole number'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await toggle(alice.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('refuses another user’s id (403), a dietitian (403), an unknown post (404) and no token (401)', async () => {
    const other = await toggle(alice.token, { id: bob.id, feedId: postId });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only access your own data.');
    const dietitian = await toggle(admin.token, { id: admin.id, feedId: postId });
    expect(dietitian.status).toBe(403);
    expect(dietitian.body.message).toBe('Only clients can like posts.');
    const missing = await toggle(alice.token, { id: alice.id, feedId: 987654 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('That post does not exist. It may have been removed.');
    expect((await toggle(undefined, { id: alice.id, feedId: postId })).status).toBe(401);
  });

  it('stays exact when one user toggles many times at once', async () => {
    const before = (await toggle(alice.token, { id: alice.id, feedId: postId })).body.data as { liked: boolean };
    const results = await Promise.all(Array.from({ length: 9 }, () => toggle(alice.token, { id: alice.id, feedId: postId })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Serialised toggles alternate: 1 + 9 = 10 toggles from "unliked" end unliked.
    expect(before.liked).toBe(true);
    const aliceRows = await server.deps.db
      .selectFrom('feed_likes')
      .select('user_id')
      .where('post_id', '=', postId)
      .where('user_id', '=', alice.id)
      .execute();
    expect(aliceRows).toHaveLength(0);
    const last = await toggle(bob.token, { id: bob.id, feedId: postId });
    expect(last.body.data.likeCount).toBe(0);
  });
});

describe('likes beyond the listed cap', () => {
  it('lists at most 100 liker ids but counts them all, and knows the viewer’s like past the cap', async () => {
    const post = await asAdmin.admin.feed.create.mutate({ desc: 'Popular' });
    const fans = await quickClients(server.deps.db, 120, 'fan');
    await server.deps.db
      .insertInto('feed_likes')
      .values(fans.map((f) => ({ post_id: post.id, user_id: f.id })))
      .execute();
    const lastFan = fans.at(-1)!;
    const res = await getFeeds(lastFan.token, '?limit=50');
    const item = res.body.data.find((p: { id: number }) => p.id === post.id);
    expect(item.likeCount).toBe(120);
    expect(item.likes).toHaveLength(100);
    expect(item.likes).toEqual(fans.slice(0, 100).map((f) => f.id));
    expect(item.likedByMe).toBe(true);

    // Likers are paged: 50 by default, then the rest through the cursor.
    const page1 = await viewLikes(alice.token, `?postId=${post.id}`);
    expect(page1.body.data).toHaveLength(50);
    const cursor = page1.body.nextCursor;
    expect(cursor).toBeTruthy();
    const page2 = await viewLikes(alice.token, `?postId=${post.id}&limit=100&cursor=${cursor}`);
    expect(page2.body.data).toHaveLength(70);
    expect(page2.body.nextCursor).toBeNull();
    expect([...page1.body.data, ...page2.body.data].map((l: { id: number }) => l.id)).toEqual(fans.map((f) => f.id));
  });
});

describe('GET /api/feeds/view-likes', () => {
  it('lists likers by first and last name', async () => {
    const post = await asAdmin.admin.feed.create.mutate({ desc: 'Who likes this?' });
    await toggle(alice.token, { id: alice.id, feedId: post.id });
    await toggle(bob.token, { id: bob.id, feedId: post.id });
    const res = await viewLikes(bob.token, `?postId=${post.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Likes loaded');
    expect(res.body.data).toEqual(
      [
        { id: alice.id, profile: { fName: 'Alice', lName: 'Rao' } },
        { id: bob.id, profile: { fName: 'Bob', lName: 'Das' } },
      ].sort((a, b) => a.id - b.id),
    );
  });

  it.each([
    ['', 'postId is required'],
    ['?postId=abc', 'postId must be a number'],
    ['?postId=1&limit=101', 'limit must be between 1 and 100'],
    ['?postId=1&cursor=x', 'cursor is not valid: pass the nextCursor of the previous page'],
  ])('refuses "%s" with 400 "%s"', async (query, message) => {
    const res = await viewLikes(alice.token, query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    const missing = await viewLikes(alice.token, '?postId=987654');
    expect(missing.status).toBe(404);
    expect((await viewLikes(undefined, '?postId=1')).status).toBe(401);
  });
});

describe('console procedures admin.feed.create / update / remove', () => {
  it('are for dietitians only', async () => {
    const asClient = httpClient(server.url, alice.token);
    expect(await codeOf(asClient.admin.feed.create.mutate({ desc: 'Hi' }))).toEqual({
      code: 'FORBIDDEN',
      message: 'Only dietitians can do that.',
    });
    expect((await codeOf(httpClient(server.url).admin.feed.create.mutate({ desc: 'Hi' }))).code).toBe('UNAUTHORIZED');
  });

  it.each([
    ['', 'Description is required'],
    ['   \n\t ', 'Description is required'],
    ['x'.repeat(5001), 'Description must be at most 5000 characters'],
    ['bell \u0007 here', 'Description can only contain text, line breaks and tabs (no invisible or direction-changing characters)'],
  ])('refuses the text %j with "%s"', async (desc, message) => {
    expect(await codeOf(asAdmin.admin.feed.create.mutate({ desc }))).toEqual({ code: 'BAD_REQUEST', message });
  });

  it('keeps 5000 characters with line breaks, edits and removes', async () => {
    const long = `${'a'.repeat(2499)}\n${'b'.repeat(2500)}`;
    const post = await asAdmin.admin.feed.create.mutate({ desc: `  ${long}  ` });
    expect(post.desc).toBe(long);
    expect(post.author).toEqual({ name: BRAND.adminDisplayName });

    const edited = await asAdmin.admin.feed.update.mutate({ id: post.id, desc: 'Edited\ntext' });
    expect(edited).toMatchObject({ id: post.id, desc: 'Edited\ntext', createdAt: post.createdAt });
    const row = await server.deps.db
      .selectFrom('feed_posts')
      .select(['description', 'updated_at'])
      .where('id', '=', post.id)
      .executeTakeFirstOrThrow();
    expect(row.description).toBe('Edited\ntext');

    expect(await asAdmin.admin.feed.remove.mutate({ id: post.id })).toEqual({ id: post.id });
    const list = await httpClient(server.url, alice.token).feed.list.query({ limit: 50 });
    expect(list.items.map((p) => p.id)).not.toContain(post.id);
    expect((await toggle(alice.token, { id: alice.id, feedId: post.id })).status).toBe(404);
  });

  it('answers NOT_FOUND for an unknown post', async () => {
    expect(await codeOf(asAdmin.admin.feed.update.mutate({ id: 987654, desc: 'x' }))).toEqual({
      code: 'NOT_FOUND',
      message: 'That post does not exist. It may have been removed.',
    });
    expect((await codeOf(asAdmin.admin.feed.remove.mutate({ id: 987654 }))).code).toBe('NOT_FOUND');
  });

  it('removing a post removes its likes and logs the change', async () => {
    const post = await asAdmin.admin.feed.create.mutate({ desc: 'Short-lived' });
    await toggle(alice.token, { id: alice.id, feedId: post.id });
    await asAdmin.admin.feed.remove.mutate({ id: post.id });
    const likes = await server.deps.db.selectFrom('feed_likes').select('user_id').where('post_id', '=', post.id).execute();
    expect(likes).toEqual([]);
    const kinds = await server.deps.db.selectFrom('feed_events').select('kind').where('post_id', '=', post.id).orderBy('id').execute();
    expect(kinds.map((k) => k.kind)).toEqual(['post.created', 'like.changed', 'post.deleted']);
  });

  it('records who created, edited and deleted a post in the audit log', async () => {
    const post = await asAdmin.admin.feed.create.mutate({ desc: 'Audited post' });
    await asAdmin.admin.feed.update.mutate({ id: post.id, desc: 'Audited post, edited' });
    await asAdmin.admin.feed.remove.mutate({ id: post.id });
    const trail = await server.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'summary'])
      .where('entity', '=', 'feed_post')
      .where('entity_id', '=', post.id)
      .orderBy('id')
      .execute();
    expect(trail.map((t) => t.action)).toEqual(['feed_post.created', 'feed_post.updated', 'feed_post.deleted']);
    expect(trail.every((t) => t.actor_id === admin.id)).toBe(true);
    expect(trail[0]!.summary).toContain('Audited post');
  });
});

describe('feed.list over tRPC', () => {
  it('returns the page with a nextCursor usable as the next input', async () => {
    const asAlice = httpClient(server.url, alice.token);
    const first = await asAlice.feed.list.query({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await asAlice.feed.list.query({ limit: 2, cursor: first.nextCursor! });
    expect(second.items[0]!.id).not.toBe(first.items[1]!.id);
    const defaults = await asAlice.feed.list.query({});
    expect(defaults.items.length).toBeLessThanOrEqual(20);
  });

  it('prunes events older than the retention window as new ones are written', async () => {
    await server.deps.db
      .insertInto('feed_events')
      .values({ kind: 'post.updated', post_id: 1, actor_id: null, created_at: sql<Date>`now() - interval '8 days'` })
      .execute();
    const post = await asAdmin.admin.feed.create.mutate({ desc: 'Pruning trigger' });
    const stale = () =>
      server.deps.db.selectFrom('feed_events').select('id').where('created_at', '<', sql<Date>`now() - interval '7 days'`).execute();
    expect(await stale()).toHaveLength(1);
    // Pruning runs when an event id is a multiple of 100: move the id sequence just short of the next one.
    const { rows } = await sql<{ id: number }>`select max(id)::int8 as id from feed_events`.execute(server.deps.db);
    const next = Math.ceil((Number(rows[0]!.id) + 2) / 100) * 100;
    await sql`select setval(pg_get_serial_sequence('feed_events', 'id'), ${next - 1}::int8)`.execute(server.deps.db);
    await toggle(alice.token, { id: alice.id, feedId: post.id });
    expect(await stale()).toHaveLength(0);
  });
});

describe('OpenAPI', () => {
  it('describes the feed paths, the page cursor beside data included', async () => {
    const doc = (await server.request('GET', '/api/openapi.json')).body;
    const getFeeds = doc.paths['/feeds/get-feeds'].get;
    expect(getFeeds.parameters.map((p: { name: string }) => p.name)).toEqual(['cursor', 'limit']);
    expect(Object.keys(getFeeds.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['data', 'nextCursor']),
    );
    expect(doc.paths['/feeds/update-feed'].put.responses).toHaveProperty('404');
    expect(doc.paths['/feeds/view-likes'].get.parameters.map((p: { name: string }) => p.name)).toContain('postId');
  });
});
