import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { verifyPassword } from '../../server/auth/password.js';
import { ROLE } from '../../server/auth/roles.js';
import { findPlan } from '../../server/catalogue/plans.js';
import type { DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { DEMO_ACCOUNTS, seedDemo } from '../../server/seed/demo.js';
import { todayUtc } from '../../server/validation.js';
import { createTestDatabase } from '../helpers/db.js';
import { httpClient } from '../helpers/callers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

/** Seeding runs inside createDeps when SEED_DEMO is on, as `npm start` does on an empty embedded database. */
beforeAll(async () => {
  server = await startTestServer({ SEED_DEMO: '1' });
}, 120_000); // renders four PDFs and hashes three passwords on top of the usual start
afterAll(() => server?.stop());

const TABLES = ['users', 'weights', 'diet_plans', 'subscriptions', 'feed_posts', 'feed_likes', 'ratings'] as const;
async function counts() {
  const db = server.deps.db;
  const entries = await Promise.all(
    TABLES.map(async (table) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return [table, Number(row.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<(typeof TABLES)[number], number>;
}

const userByEmail = (email: string) => server.deps.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

describe('seedDemo', () => {
  it('fills an empty database with the demo content', async () => {
    expect(await counts()).toEqual({
      users: 3,
      weights: 34,
      diet_plans: 4,
      subscriptions: 1,
      feed_posts: 12,
      feed_likes: 15,
      ratings: 1,
    });
  });

  it('creates the demo accounts with their fixed passwords, names, heights and current weights', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await userByEmail(account.email);
      expect(user.role).toBe(account.role === 'admin' ? ROLE.admin : ROLE.client);
      expect(`${user.first_name} ${user.last_name}`).toBe(account.name);
      expect(await verifyPassword(account.password, user.password_hash!)).toBe(true);
      if (account.role === 'client') {
        expect(user.height_m).toBeGreaterThan(1.4);
        const latest = await server.deps.db
          .selectFrom('weights')
          .select(['weight_kg', 'date'])
          .where('client_id', '=', user.id)
          .orderBy('date', 'desc')
          .executeTakeFirstOrThrow();
        expect(user.weight_kg).toBe(latest.weight_kg);
        expect(latest.date <= todayUtc()).toBe(true);
      }
    }
  });

  it('records weekly weights over about four months for each client', async () => {
    for (const email of ['asha@poshan.demo', 'rohan@poshan.demo']) {
      const { id } = await userByEmail(email);
      const dates = (await server.deps.db.selectFrom('weights').select('date').where('client_id', '=', id).orderBy('date').execute()).map(
        (w) => new Date(`${w.date}T00:00:00Z`).getTime(),
      );
      expect(dates).toHaveLength(17);
      const gaps = dates.slice(1).map((d, i) => (d - dates[i]!) / 86_400_000);
      expect(new Set(gaps)).toEqual(new Set([7]));
    }
  });

  it('gives Asha three plans (the newest covering today) and Rohan one, as real PDFs naming them', async () => {
    const asha = await userByEmail('asha@poshan.demo');
    const rohan = await userByEmail('rohan@poshan.demo');
    const session = await issueSession(server.deps.db, asha.id);
    const res = await server.request('GET', '/api/diet-plan/get-diet-plan', { token: session.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const [newest] = res.body.data;
    expect(newest.from <= todayUtc() && todayUtc() <= newest.to).toBe(true);

    const download = await fetch(new URL(newest.pdfURL, server.url));
    expect(download.status).toBe(200);
    const pdf = Buffer.from(await download.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
    for (const expected of ['Asha Verma', 'Meera Iyer', 'Breakfast', 'katori', 'Moong dal', '₹1,200']) expect(text).toContain(expected);

    const rohans = await server.deps.db
      .selectFrom('diet_plans')
      .select(['pdf_data', 'created_by'])
      .where('client_id', '=', rohan.id)
      .execute();
    expect(rohans).toHaveLength(1);
    const rohanText = execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(rohans[0]!.pdf_data), encoding: 'utf8' });
    expect(rohanText).toContain('Rohan Mehta');
    expect(rohanText).toContain('Egg bhurji');
    expect(rohans[0]!.created_by).toBe((await userByEmail('dietitian@poshan.demo')).id);
  });

  it('signs seeded plans with the dietitian’s name exactly as a plan she composes in the console is signed', async () => {
    const admin = await userByEmail('dietitian@poshan.demo');
    const asha = await userByEmail('asha@poshan.demo');
    const seeded = await server.deps.db
      .selectFrom('diet_plans')
      .select(['pdf_data', 'title', 'from_date', 'to_date'])
      .where('client_id', '=', asha.id)
      .orderBy('from_date', 'desc')
      .executeTakeFirstOrThrow();
    const api = httpClient(server.url, (await issueSession(server.deps.db, admin.id)).token);
    const preview = await api.admin.dietPlans.preview.mutate({
      clientId: asha.id,
      plan: {
        title: seeded.title,
        from: seeded.from_date,
        to: seeded.to_date,
        days: [
          {
            label: 'Monday',
            meals: [{ time: '08:00', name: 'Breakfast', items: [{ food: 'Idli', portion: { quantity: 3, unit: 'piece', grams: 120 } }] }],
          },
        ],
      },
    });
    const signature = (pdf: Uint8Array) => {
      const text = execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(pdf), encoding: 'utf8' });
      return text.match(/Prepared by ([^,]+), Poshan/)?.[1];
    };
    expect(signature(seeded.pdf_data)).toBe('Meera Iyer');
    expect(signature(Buffer.from(preview.base64, 'base64'))).toBe('Meera Iyer');
  });

  it('puts Asha on an active catalogue subscription at catalogue prices', async () => {
    const asha = await userByEmail('asha@poshan.demo');
    const plan = findPlan('WL', 'tier-commitment')!;
    const sub = await server.deps.db.selectFrom('subscriptions').selectAll().executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      client_id: asha.id,
      plan_type: 'WL',
      plan_id: 'tier-commitment',
      plan_name: plan.name,
      list_price: 11999,
      amount_received: 9599,
      cancelled_at: null,
    });
    expect(sub.start_date <= todayUtc() && todayUtc() <= sub.end_date).toBe(true);
  });

  it('posts a dozen feed items as the dietitian, liked by both clients, and one rating', async () => {
    const admin = await userByEmail('dietitian@poshan.demo');
    const posts = await server.deps.db.selectFrom('feed_posts').select(['author_id', 'created_at']).execute();
    expect(new Set(posts.map((p) => p.author_id))).toEqual(new Set([admin.id]));
    expect(posts.every((p) => p.created_at.getTime() <= Date.now())).toBe(true);
    const likers = await server.deps.db.selectFrom('feed_likes').select('user_id').distinct().execute();
    const clientIds = [(await userByEmail('asha@poshan.demo')).id, (await userByEmail('rohan@poshan.demo')).id];
    expect(new Set(likers.map((l) => l.user_id))).toEqual(new Set(clientIds));
    const rating = await server.deps.db.selectFrom('ratings').selectAll().executeTakeFirstOrThrow();
    expect(clientIds).toContain(rating.user_id);
    expect(rating.half_stars).toBeGreaterThanOrEqual(1);
  });

  it('does nothing on a second run (any user means the database is not empty)', async () => {
    const before = await counts();
    expect(await seedDemo({ db: server.deps.db })).toEqual({ seeded: false, reason: 'the database already has users' });
    expect(await counts()).toEqual(before);
  });
});

describe('seedDemo on a database two instances open at once', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
    await migrateToLatest(handle.db);
  }, 120_000);
  afterAll(() => handle?.close());

  it('seeds exactly once', { timeout: 60_000 }, async () => {
    const results = await Promise.all([seedDemo({ db: handle.db }), seedDemo({ db: handle.db })]);
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    const users = await handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(users.n)).toBe(3);
  });
});
