import { type Kysely, sql } from 'kysely';
import { ROLE } from '../auth/roles.js';
import type { Database } from '../db/schema.js';
import { setComposedContent } from '../diet-plan/repo.js';
import { createDietPlan } from '../diet-plan/service.js';
import type { Logger } from '../logger.js';
import { renderDietPlanPdf } from '../pdf/diet-plan.js';
import type { FileStorage } from '../storage/storage.js';
import { createUser } from '../users/service.js';
import { todayUtc } from '../validation.js';
import { seedAppointments } from './demo-appointments.js';
import { seedCheckIns } from './demo-check-ins.js';
import { seedClinic } from './demo-clinic.js';
import { seedDemoFoods } from './demo-foods.js';
import { seedDemoRecipes } from './demo-recipes.js';
import { seedDemoTargets } from './demo-targets.js';
import { ASHA_MESSAGES, ROHAN_MESSAGES, seedConversation } from './demo-conversations.js';
import { DEMO_FEED_POSTS } from './demo-feed.js';
import { issueDemoInvoice, payDemoInvoice } from './demo-invoices.js';
import { seedJournal } from './demo-journal.js';
import { renderDemoPhotos } from './demo-photos.js';
import { ashaDietPlans, linkDemoPlans, rohanDietPlan } from './demo-plans.js';
import { seedCareRecord } from './demo-record.js';
import { addDays, serviceDay, serviceInstant } from '../time.js';

/**
 * Demo content for an empty database, so a fresh `npm start` shows every part
 * of a working service: a dietitian and her clinic as she would set it up
 * (billing details, weekly hours, office hours, saved replies), and two clients
 * with weight histories, diet plans with real PDFs, plans paid by invoice and
 * one invoice each still to pay, a conversation each, a week of meal journal
 * with photos and comments, a care record, a past session with notes and the
 * next one booked; a feed with likes and a review. It never touches a database
 * that has any user, so it is safe to run on every start.
 */

export type DemoAccount = { role: 'admin' | 'client'; email: string; password: string; name: string };

/** Fixed demo logins (printed by `npm start` in demo mode). Demo data only: never seeded unless SEED_DEMO is on. */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'dietitian@poshan.demo', password: 'poshan-dietitian', name: 'Meera Iyer' },
  { role: 'client', email: 'asha@poshan.demo', password: 'poshan-asha', name: 'Asha Verma' },
  { role: 'client', email: 'rohan@poshan.demo', password: 'poshan-rohan', name: 'Rohan Mehta' },
] as const satisfies readonly DemoAccount[];

const [ADMIN, ASHA, ROHAN] = DEMO_ACCOUNTS;

/** Weekly weigh-ins over 16 weeks, oldest first: Asha losing, Rohan gaining. */
const ASHA_WEIGHTS = [78.4, 77.9, 77.6, 77.0, 76.8, 76.1, 75.9, 75.2, 74.9, 74.6, 74.0, 73.8, 73.1, 72.9, 72.4, 72.0, 71.6];
const ROHAN_WEIGHTS = [61.2, 61.5, 61.4, 61.9, 62.3, 62.2, 62.6, 63.0, 63.1, 63.5, 63.4, 63.9, 64.2, 64.1, 64.6, 64.9, 65.1];

/** Which demo posts (by index in DEMO_FEED_POSTS) each client likes. */
const LIKED_BY = {
  asha: [0, 1, 2, 4, 6, 7, 9, 10],
  rohan: [0, 2, 3, 5, 7, 10, 11],
};

export type SeedResult =
  | { seeded: false; reason: string }
  | { seeded: true; adminId: number; clientIds: { asha: number; rohan: number }; dietPlanIds: number[] };

/** The e-mail addresses of the demo accounts that exist in this database (start-up prints their logins). */
export async function demoAccountsPresent(db: Kysely<Database>): Promise<Set<string>> {
  const emails = DEMO_ACCOUNTS.map((a) => a.email);
  return new Set((await db.selectFrom('users').select('email').where('email', 'in', emails).execute()).map((r) => r.email));
}

const hasAnyUser = async (db: Kysely<Database>) => Boolean(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());

const split = (name: string) => {
  const [firstName = name, ...rest] = name.split(' ');
  return { firstName, lastName: rest.join(' ') };
};

export async function seedDemo(
  deps: { db: Kysely<Database>; storage: FileStorage; logger?: Logger },
  opts: { today?: string; now?: Date } = {},
): Promise<SeedResult> {
  const { db, storage, logger } = deps;
  if (await hasAnyUser(db)) return { seeded: false, reason: 'the database already has users' };

  const now = opts.now ?? new Date();
  const today = opts.today ?? todayUtc(now);
  // The clinic's calendar, journal and invoices run on India-time days.
  const indiaToday = serviceDay(now);
  // Rendering takes a moment; do it before the transaction holds its lock.
  const ashaPlans = ashaDietPlans(today);
  const rohanPlan = rohanDietPlan(today);
  const render = (plan: (typeof ashaPlans)[number], clientName: string, issuedOn: string) =>
    renderDietPlanPdf({ ...plan, clientName, dietitian: split(ADMIN.name), issuedOn });
  const [ashaPdfs, rohanPdf, photos] = await Promise.all([
    Promise.all(ashaPlans.map((p) => render(p, ASHA.name, addDays(p.from, -2)))),
    render(rohanPlan, ROHAN.name, addDays(rohanPlan.from, -1)),
    renderDemoPhotos(),
  ]);
  const pdfs = { asha: ashaPdfs, rohan: rohanPdf };

  const result = await db.transaction().execute(async (trx): Promise<SeedResult> => {
    // Two instances starting together on one empty database: one seeds, the other finds users.
    await sql`select pg_advisory_xact_lock(hashtext('poshan.seed-demo'))`.execute(trx);
    if (await hasAnyUser(trx)) return { seeded: false, reason: 'the database already has users' };
    // The food library first: the plans and meals below are made of its foods.
    await seedDemoFoods(trx, { now });
    // The clinic's recipes next (dal, roti, rice...), made of those foods: plans and meals use them too.
    await seedDemoRecipes(trx, { now });
    // The plans as composed, their foods linked to the library, so each day adds up.
    const composed = await linkDemoPlans(trx, [...ashaPlans, rohanPlan]);

    const admin = await createUser(trx, {
      email: ADMIN.email,
      password: ADMIN.password,
      ...split(ADMIN.name),
      role: ROLE.admin,
      phone: '9876543210',
    });
    const asha = await createUser(trx, {
      email: ASHA.email,
      password: ASHA.password,
      ...split(ASHA.name),
      role: ROLE.client,
      heightM: 1.62,
      weightKg: ASHA_WEIGHTS.at(-1),
      phone: '9811122233',
      conditionNotes: 'Vegetarian. Mild hypothyroidism, on thyroxine 50 mcg. Desk job; walks in the evening.',
    });
    const rohan = await createUser(trx, {
      email: ROHAN.email,
      password: ROHAN.password,
      ...split(ROHAN.name),
      role: ROLE.client,
      heightM: 1.78,
      weightKg: ROHAN_WEIGHTS.at(-1),
      phone: '9822233344',
      conditionNotes: 'Eats eggs, chicken and fish. Gym 5 days a week, evenings.',
    });

    await seedDemoTargets(trx, { clients: { asha: asha.id, rohan: rohan.id }, setBy: admin.id, now });

    const weeklyWeights = (clientId: number, weights: number[]) =>
      weights.map((weight, i) => ({ client_id: clientId, weight_kg: weight, date: addDays(today, -7 * (weights.length - 1 - i)) }));
    await trx
      .insertInto('weights')
      .values([...weeklyWeights(asha.id, ASHA_WEIGHTS), ...weeklyWeights(rohan.id, ROHAN_WEIGHTS)])
      .execute();

    const dietPlanIds: number[] = [];
    for (const [i, plan] of ashaPlans.entries()) {
      const pdf = pdfs.asha[i]!;
      const created = await createDietPlan(trx, {
        clientId: asha.id,
        title: plan.title,
        from: plan.from,
        to: plan.to,
        pdf,
        createdBy: admin.id,
      });
      await setComposedContent(trx, created.id, composed[i]);
      dietPlanIds.push(created.id);
    }
    const rohanCreated = await createDietPlan(trx, {
      clientId: rohan.id,
      title: rohanPlan.title,
      from: rohanPlan.from,
      to: rohanPlan.to,
      pdf: pdfs.rohan,
      createdBy: admin.id,
    });
    await setComposedContent(trx, rohanCreated.id, composed.at(-1));
    dietPlanIds.push(rohanCreated.id);

    const clinic = await seedClinic(trx, { dietitianId: admin.id, today: indiaToday, now });
    const people = {
      meera: { id: admin.id, name: ADMIN.name },
      asha: { id: asha.id, name: ASHA.name },
      rohan: { id: rohan.id, name: ROHAN.name },
    };

    // Plans are paid by invoice: Asha bought the featured 6-month weight-loss plan when her second phase began,
    // Rohan the one-month weight-gain plan two days before his first diet plan. Each has the next invoice to pay.
    const ashaStart = ashaPlans[1]!.from;
    const rohanStart = addDays(rohanPlan.from, -2);
    const issue = (client: { id: number; name: string }, input: Parameters<typeof issueDemoInvoice>[1]['input'], at: Date) =>
      issueDemoInvoice(trx, { billing: clinic.billing, client, dietitianId: admin.id, input, at });
    const ashaPaid = await issue(
      people.asha,
      { plan: { planType: 'WL', planId: 'tier-commitment' }, clientStateCode: '27' },
      serviceInstant(addDays(ashaStart, -2), 11 * 60),
    );
    await payDemoInvoice(trx, ashaPaid, {
      utr: '432118765501',
      claimedAt: serviceInstant(addDays(ashaStart, -1), 19 * 60 + 5),
      confirmedAt: serviceInstant(ashaStart, 10 * 60),
      dietitianId: admin.id,
    });
    const rohanPaid = await issue(
      people.rohan,
      { plan: { planType: 'WG', planId: 'tier-kickstart' }, clientStateCode: '29' },
      serviceInstant(addDays(rohanStart, -1), 17 * 60),
    );
    await payDemoInvoice(trx, rohanPaid, {
      utr: '432987120044',
      claimedAt: serviceInstant(addDays(rohanStart, -1), 21 * 60 + 40),
      confirmedAt: serviceInstant(rohanStart, 9 * 60 + 45),
      dietitianId: admin.id,
    });
    await issue(
      people.asha,
      {
        lines: [{ description: 'Lab report review: thyroid profile, vitamin D and B12', quantity: 1, unitPaise: 600_00 }],
        clientStateCode: '27',
      },
      serviceInstant(addDays(indiaToday, -2), 16 * 60),
    );
    await issue(
      people.rohan,
      {
        plan: { planType: 'WG', planId: 'tier-kickstart' },
        clientStateCode: '29',
        notes: 'Month 2: paying extends your plan from the day after this month ends.',
      },
      serviceInstant(addDays(indiaToday, -1), 18 * 60),
    );

    // Each client checked in on their weigh-in days since their plan began: nobody starts overdue.
    for (const [client, weights, start] of [
      [asha, ASHA_WEIGHTS, ashaStart],
      [rohan, ROHAN_WEIGHTS, rohanStart],
    ] as const) {
      const weighIns = weeklyWeights(client.id, weights)
        .filter((w) => w.date > start)
        .map((w) => ({ date: w.date, weightKg: w.weight_kg }));
      await seedCheckIns(trx, { clientId: client.id, dietitianId: admin.id, weighIns, now });
    }

    const clients = [
      { ...people.asha, kind: 'asha' as const, start: ashaStart, targetInDays: 150, messages: ASHA_MESSAGES },
      { ...people.rohan, kind: 'rohan' as const, start: rohanStart, targetInDays: 90, messages: ROHAN_MESSAGES },
    ];
    for (const client of clients) {
      const common = { client, dietitianId: admin.id, today: indiaToday, now };
      await seedCareRecord(trx, { ...common, startDate: client.start, targetInDays: client.targetInDays });
      await seedJournal(trx, storage, { ...common, photos });
      await seedConversation(trx, storage, {
        client,
        dietitian: people.meera,
        lines: client.messages,
        photos,
        officeHours: clinic.officeHours,
        today: indiaToday,
        now,
      });
    }
    // Asha likes late mornings, Rohan comes after work; each had a session in the last couple of weeks.
    await seedAppointments(trx, {
      dietitianId: admin.id,
      availability: clinic.availability,
      clients: [
        { client: clients[0]!, minute: 11 * 60 + 30, pastFrom: addDays(indiaToday, -10) },
        { client: clients[1]!, minute: 18 * 60, pastFrom: addDays(rohanStart, 2) },
      ],
      today: indiaToday,
      now,
    });

    const hour = 3600_000;
    const posts = await trx
      .insertInto('feed_posts')
      .values(
        DEMO_FEED_POSTS.map((post) => {
          const at = new Date(now.getTime() - post.hoursAgo * hour);
          return { author_id: admin.id, description: post.text, created_at: at, updated_at: at };
        }),
      )
      .returning(['id', 'created_at'])
      .execute();
    const likes = [
      ...LIKED_BY.asha.map((i) => ({ postIndex: i, userId: asha.id, delayHours: 2 })),
      ...LIKED_BY.rohan.map((i) => ({ postIndex: i, userId: rohan.id, delayHours: 5 })),
    ].flatMap(({ postIndex, userId, delayHours }) => {
      const post = posts[postIndex];
      if (!post) return [];
      // A like never predates its post, nor the present.
      const at = new Date(Math.min(post.created_at.getTime() + delayHours * hour, now.getTime()));
      return [{ post_id: post.id, user_id: userId, created_at: at }];
    });
    await trx.insertInto('feed_likes').values(likes).execute();

    await trx
      .insertInto('ratings')
      .values({
        user_id: asha.id,
        half_stars: 9,
        comment:
          'Lost 7 kg in four months without giving up my Sunday dosa. The weekly check-ins kept me going, and the plans fit a vegetarian kitchen.',
        created_at: new Date(now.getTime() - 6 * 24 * hour),
      })
      .execute();

    return { seeded: true, adminId: admin.id, clientIds: { asha: asha.id, rohan: rohan.id }, dietPlanIds };
  });

  if (result.seeded) logger?.info('demo content seeded', { accounts: DEMO_ACCOUNTS.map((a) => a.email) });
  return result;
}
