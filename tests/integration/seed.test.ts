import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { verifyPassword } from '../../server/auth/password.js';
import { ROLE } from '../../server/auth/roles.js';
import type { DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { sendAppointmentReminders } from '../../server/appointments/reminders.js';
import { dayIn, shiftDay } from '../../server/journal/schema.js';
import { sendMessageNotices } from '../../server/messages/notify.js';
import { DEMO_ACCOUNTS, seedDemo } from '../../server/seed/demo.js';
import { createLocalStorage } from '../../server/storage/local.js';
import { todayUtc } from '../../server/validation.js';
import { createTestDatabase } from '../helpers/db.js';
import { callerFor, httpClient } from '../helpers/callers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

/** Seeding runs inside createDeps when SEED_DEMO is on, as `npm start` does on an empty embedded database. */
beforeAll(async () => {
  server = await startTestServer({ SEED_DEMO: '1' });
}, 120_000); // renders four PDFs and eight photos and hashes three passwords on top of the usual start
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
      subscriptions: 2,
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

  it('puts each client on an active catalogue plan started by the paid invoice for it, at the amount paid', async () => {
    for (const [email, planType, planId, listPrice] of [
      ['asha@poshan.demo', 'WL', 'tier-commitment', 11999],
      ['rohan@poshan.demo', 'WG', 'tier-kickstart', 1999],
    ] as const) {
      const client = await userByEmail(email);
      const sub = await server.deps.db.selectFrom('subscriptions').selectAll().where('client_id', '=', client.id).executeTakeFirstOrThrow();
      expect(sub).toMatchObject({ plan_type: planType, plan_id: planId, list_price: listPrice, cancelled_at: null });
      expect(sub.start_date <= todayUtc() && todayUtc() <= sub.end_date).toBe(true);
      const paid = await server.deps.db
        .selectFrom('invoices')
        .selectAll()
        .where('client_id', '=', client.id)
        .where('status', '=', 'paid')
        .executeTakeFirstOrThrow();
      expect(paid).toMatchObject({ subscription_id: sub.id, plan_id: planId, paid_via: 'upi' });
      expect(sub.amount_received * 100).toBe(paid.total_paise);
    }
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
    expect(await seedDemo({ db: server.deps.db, storage: server.deps.storage })).toEqual({
      seeded: false,
      reason: 'the database already has users',
    });
    expect(await counts()).toEqual(before);
  });
});

/** Signs in as a demo account and calls the procedures as the web client does. */
async function demoCaller(email: string) {
  const user = await userByEmail(email);
  return { user, api: await callerFor(server, (await issueSession(server.deps.db, user.id)).token) };
}

/** What a signed link serves: its status, type and, for an image, its size in pixels. */
async function served(url: string) {
  const res = await fetch(new URL(url, server.url));
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = res.ok ? await sharp(bytes).metadata() : undefined;
  return { status: res.status, type: res.headers.get('content-type'), width: meta?.width };
}

describe('the demo a newcomer signs in to', () => {
  const today = () => dayIn(new Date());

  it('shows Asha her conversation: messages both ways, one with a photo its signed links serve, one still unread', async () => {
    const { api } = await demoCaller('asha@poshan.demo');
    const { items } = await api.messages.conversations({});
    expect(items).toHaveLength(1);
    const page = await api.messages.list({ conversationId: items[0]!.id });
    const roles = new Set(page.messages.map((m) => m.sender.role));
    expect(roles).toContain('client');
    expect(roles).toContain('dietitian');
    const withPhoto = page.messages.filter((m) => m.attachments.length > 0);
    expect(withPhoto).toHaveLength(1);
    const [photo] = withPhoto[0]!.attachments;
    expect(await served(photo!.url)).toEqual({ status: 200, type: 'image/jpeg', width: 960 });
    expect(await served(photo!.thumbnailUrl!)).toMatchObject({ status: 200, type: 'image/webp' });
    expect((await api.messages.unread()).totalUnread).toBe(1);
  });

  it('shows Asha a week of her meal journal with photos, a mark and the dietitian’s comments, and her water', async () => {
    const { api } = await demoCaller('asha@poshan.demo');
    const week = await api.journal.list({ from: shiftDay(today(), -7), to: shiftDay(today(), -1) });
    expect(new Set(week.entries.map((e) => e.date)).size).toBe(7);
    const photos = week.entries.flatMap((e) => e.photos);
    expect(photos.length).toBeGreaterThanOrEqual(7);
    expect(await served(photos[0]!.url)).toMatchObject({ status: 200, type: 'image/jpeg' });
    const comments = week.entries.flatMap((e) => e.comments);
    expect(comments.some((c) => c.author.role === 'dietitian')).toBe(true);
    expect(comments.some((c) => c.author.role === 'client')).toBe(true);
    expect(week.entries.some((e) => e.mark?.kind === 'lets-talk')).toBe(true);
    expect((await api.journal.water({ date: shiftDay(today(), -1) })).glasses).toBeGreaterThan(0);
  });

  it('offers Asha free follow-up times in the next 14 days, and shows her next session and a past one', async () => {
    const { api } = await demoCaller('asha@poshan.demo');
    const now = Date.now();
    const { slots } = await api.appointments.slots({ kind: 'follow_up' });
    expect(slots.length).toBeGreaterThan(10);
    expect(slots.every((s) => s.start.getTime() > now && s.start.getTime() < now + 15 * 86_400_000)).toBe(true);
    const free = await api.appointments.slots({ kind: 'consultation' });
    expect(free.slots.length).toBeGreaterThan(10);
    const mine = await api.appointments.list({});
    expect(mine.upcoming).toHaveLength(1);
    expect(mine.upcoming[0]).toMatchObject({ status: 'booked', kind: 'follow_up', dietitianName: 'Meera Iyer', canChange: true });
    // A day or more ahead: no reminder is due as the demo starts.
    expect(mine.upcoming[0]!.start.getTime()).toBeGreaterThan(now + 24 * 3_600_000);
    expect(mine.past.map((a) => a.status)).toEqual(['done']);
    expect(mine.entitlement.rule).toBe('weekly');
  });

  it('shows Asha an invoice to pay by UPI and a paid one', async () => {
    const { api } = await demoCaller('asha@poshan.demo');
    const { items } = await api.invoice.list({});
    const open = items.filter((i) => i.status === 'issued');
    expect(open).toHaveLength(1);
    expect(open[0]!.upiLink).toMatch(/^upi:\/\/pay\?pa=poshan\.demo%40okdemo&/);
    expect(open[0]!.overdue).toBe(false);
    expect(open[0]!.cgstPaise).toBeGreaterThan(0);
    const paid = items.filter((i) => i.status === 'paid');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ upiLink: null, paidVia: 'upi', plan: { planType: 'WL', planId: 'tier-commitment' } });
  });

  it('gives Asha a finished intake, goals with progress, her measurements and weekly check-ins with replies', async () => {
    const { api } = await demoCaller('asha@poshan.demo');
    expect((await api.careRecord.intake.get({})).state).toBe('done');
    const goals = await api.careRecord.goals.get({});
    expect(goals.current).toMatchObject({ targetWeightKg: 68, setBy: 'Meera Iyer' });
    expect(goals.progress.weightPercent).toBeGreaterThan(0);
    expect(await api.careRecord.measurements.list({})).toHaveLength(2);
    const checkIns = await api.checkIn.list({});
    expect(checkIns.next.state).toBe('upcoming');
    expect(checkIns.history.length).toBeGreaterThanOrEqual(6);
    expect(checkIns.history.some((c) => c.reply !== null)).toBe(true);
  });

  it('shows Rohan his own conversation, journal, sessions and invoices (IGST: another state)', async () => {
    const { api } = await demoCaller('rohan@poshan.demo');
    const { items } = await api.messages.conversations({});
    const page = await api.messages.list({ conversationId: items[0]!.id });
    expect(page.messages.some((m) => m.attachments.length === 1)).toBe(true);
    expect((await api.journal.list({})).entries.length).toBeGreaterThan(0);
    const mine = await api.appointments.list({});
    expect([mine.upcoming.length, mine.past.length]).toEqual([1, 1]);
    const invoices = (await api.invoice.list({})).items;
    expect(invoices.map((i) => i.status).sort()).toEqual(['issued', 'paid']);
    expect(invoices.every((i) => i.igstPaise > 0 && i.cgstPaise === 0)).toBe(true);
  });

  it('shows Meera an inbox with a client waiting, a calendar with sessions, notes, payments and her clinic’s settings', async () => {
    const { api } = await demoCaller('dietitian@poshan.demo');
    const inbox = await api.admin.messages.inbox({});
    expect(inbox.items).toHaveLength(2);
    expect(inbox.items.filter((c) => c.waitingForUs).map((c) => c.client.name)).toEqual(['Rohan Mehta']);
    expect(inbox.totalUnread).toBe(1);
    expect((await api.admin.messages.savedReplies()).length).toBeGreaterThanOrEqual(3);
    expect(await api.admin.messages.officeHours()).toEqual({ days: [1, 2, 3, 4, 5, 6], opens: '09:00', closes: '20:00' });

    const calendar = await api.admin.appointments.calendar({ from: shiftDay(today(), -14), days: 28 });
    expect(calendar.appointments.filter((a) => a.status === 'booked')).toHaveLength(2);
    const done = calendar.appointments.filter((a) => a.status === 'done');
    expect(done).toHaveLength(2);
    for (const a of done) expect((await api.admin.calls.note({ appointmentId: a.id }))?.body).toMatch(/\w/);

    const summary = await api.admin.payments.summary();
    expect(summary.counts).toMatchObject({ issued: 2, paid: 2, claimed: 0, overdue: 0 });
    expect((await api.admin.payments.settings())?.upiVpa).toBe('poshan.demo@okdemo');
    const availability = await api.admin.appointments.availability({});
    expect(availability.bookable).toBe(true);
    expect(availability.exceptions).toHaveLength(1);
  });

  it('owes nobody a check-in reminder, an appointment reminder or an unread-message e-mail as it starts', async () => {
    const { deps } = server;
    // The start's first sweep of follow-up reminders has run (before the server answered): it found nothing owed.
    const reminders = await deps.db
      .selectFrom('follow_up_reminders')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(reminders.n)).toBe(0);
    expect(await sendAppointmentReminders(deps, new Date())).toBe(0);
    expect(await sendMessageNotices(deps, new Date())).toEqual([]);
  });
});

describe('seedDemo on a database two instances open at once', () => {
  let handle: DbHandle;
  const filesDir = mkdtempSync(join(tmpdir(), 'poshan-seed-files-'));
  beforeAll(async () => {
    handle = await createTestDatabase();
    await migrateToLatest(handle.db);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  // Both render the PDFs and photos before one of them takes the lock: twice a seed's rendering, side by side.
  it('seeds exactly once', { timeout: 150_000 }, async () => {
    const storage = createLocalStorage(filesDir);
    const results = await Promise.all([seedDemo({ db: handle.db, storage }), seedDemo({ db: handle.db, storage })]);
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    const users = await handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(users.n)).toBe(3);
  });
});
