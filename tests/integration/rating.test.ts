import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSessionUser } from '../../server/auth/session.js';
import { createContextInner } from '../../server/trpc/context.js';
import { createCaller } from '../../server/trpc/root.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;

const ALREADY_RATED = 'You have already rated us. Thank you!';
const RATED = 'Rated successfully. Thank you for your feedback!';

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol, admin] = await Promise.all([server.user(), server.user(), server.user(), server.user({ role: 'admin' })]);
});
afterAll(() => server?.stop());

const addRating = (token: string | undefined, body: unknown) => server.request('POST', '/api/client/ratings/add-rating', { token, body });
const checkIsRated = (token: string | undefined, userId?: number) =>
  server.request('GET', `/api/ratings/check-is-rated${userId === undefined ? '' : `?userId=${userId}`}`, { token });

describe('GET /api/ratings/check-is-rated (before rating)', () => {
  it('answers 200 with rated: false', async () => {
    const res = await checkIsRated(alice.token, alice.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: 'Not rated yet', data: { rated: false } });
  });
});

describe('POST /api/client/ratings/add-rating', () => {
  it.each([
    [{}, 'Ratings are required'],
    [{ reviewStar: 0 }, 'Ratings are required'],
    [{ reviewStar: '' }, 'Ratings are required'],
    [{ reviewStar: 'five' }, 'Ratings must be a number'],
    [{ reviewStar: 3.3 }, 'Ratings go from 0.5 to 5 stars in half-star steps'],
    [{ reviewStar: 5.5 }, 'Ratings go from 0.5 to 5 stars in half-star steps'],
    [{ reviewStar: 4, reviewComment: 'x'.repeat(1001) }, 'Your review must be at most 1000 characters'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await addRating(alice.token, body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(Object.values(res.body.data.fieldErrors).flat()).toContain(message);
  });

  it('needs a signed-in user (401)', async () => {
    const res = await addRating(undefined, { reviewStar: 4 });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(401);
  });

  it('refuses to rate for another user (403), leaving both unrated', async () => {
    const res = await addRating(alice.token, { reviewStar: 1, reviewBy: bob.id });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You can only rate the service for yourself.');
    expect((await checkIsRated(bob.token)).status).toBe(200);
  });

  it('refuses a dietitian, for themselves or on a client’s behalf (403)', async () => {
    for (const body of [{ reviewStar: 5 }, { reviewStar: 5, reviewBy: carol.id }]) {
      const res = await addRating(admin.token, body);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Ratings come from clients; dietitians cannot add one.');
    }
  });

  it('records the rating with 201, in half stars', async () => {
    const res = await addRating(alice.token, { reviewStar: 4.5, reviewComment: '  Practical plans, quick replies. ', reviewBy: alice.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 201,
      message: RATED,
      data: { id: expect.any(Number), reviewStar: 4.5, reviewComment: 'Practical plans, quick replies.', reviewBy: alice.id },
    });
    const row = await server.deps.db.selectFrom('ratings').selectAll().where('user_id', '=', alice.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ half_stars: 9, comment: 'Practical plans, quick replies.', is_published: false });
  });

  it('takes the comment as optional and reviewBy from the session', async () => {
    const res = await addRating(bob.token, { reviewStar: '2' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ reviewStar: 2, reviewComment: '', reviewBy: bob.id });
  });

  it('refuses a second rating with 409', async () => {
    const res = await addRating(alice.token, { reviewStar: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status: 409, message: ALREADY_RATED });
    const row = await server.deps.db.selectFrom('ratings').select('half_stars').where('user_id', '=', alice.id).executeTakeFirstOrThrow();
    expect(row.half_stars).toBe(9);
  });

  it('keeps one rating when two arrive at once', async () => {
    const results = await Promise.all([addRating(carol.token, { reviewStar: 3 }), addRating(carol.token, { reviewStar: 3.5 })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await server.deps.db.selectFrom('ratings').select('id').where('user_id', '=', carol.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('GET /api/ratings/check-is-rated', () => {
  it('answers 409 once the user has rated, with or without userId', async () => {
    for (const res of [await checkIsRated(alice.token, alice.id), await checkIsRated(alice.token)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 409, message: ALREADY_RATED });
    }
  });

  it('refuses another user’s id (403) and no token (401)', async () => {
    const other = await checkIsRated(alice.token, bob.id);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only access your own data.');
    expect((await checkIsRated(undefined, alice.id)).status).toBe(401);
  });

  it('lets a dietitian check any client', async () => {
    expect((await checkIsRated(admin.token, alice.id)).status).toBe(409);
    const fresh = await server.user();
    expect((await checkIsRated(admin.token, fresh.id)).body.data).toEqual({ rated: false });
  });

  it('says when userId is not an id', async () => {
    const res = await server.request('GET', '/api/ratings/check-is-rated?userId=me', { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('userId must be a number');
  });
});

describe('rating over tRPC', () => {
  it('answers { rated } instead of a 409', async () => {
    const user = await resolveSessionUser(server.deps.db, alice.token);
    const caller = createCaller(createContextInner({ deps: server.deps, user }));
    expect(await caller.rating.checkIsRated({})).toEqual({ rated: true });
    await expect(caller.rating.add({ reviewStar: 5 })).rejects.toMatchObject({ code: 'CONFLICT', message: ALREADY_RATED });
  });
});
