import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_REMINDER_JOB, sendAppointmentReminders } from '../../server/appointments/reminders.js';
import { createMailer } from '../../server/mail/mailer.js';
import { callerFor } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Appointments on whichever database the run uses (PGlite, or Postgres with TEST_DATABASE_URL):
 * slots in each viewer's time zone, one booking per slot however many race for it, the plan's
 * entitlement, the 12-hour rule, the mails with their .ics, and reminders exactly once.
 *
 * The clock starts on Monday 19 October 2026, 09:00 in India (03:30 UTC). The dietitian works Monday to
 * Saturday 10:00–13:00 and 14:00–18:00 India time with a break 11:30–12:00 on Mondays; sessions are 30
 * minutes (follow-ups) and 20 (consultations) with a 15-minute buffer.
 */
let now = new Date('2026-10-19T03:30:00Z');
const clock = () => now;
const ist = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:30`);

let server: TestServer;
let admin: TestUser;
let shortPlan: TestUser;
let longPlan: TestUser;
let racers: TestUser[];
let outsider: TestUser;

const post = (path: string, token: string | undefined, body: unknown) => server.request('POST', `/api${path}`, { token, body });
const get = (path: string, token?: string) => server.request('GET', `/api${path}`, { token });
const book = (token: string, start: Date, key = randomUUID()) =>
  post('/appointments', token, { start: start.toISOString(), kind: 'follow_up', clientRequestId: key });

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://poshan.example' }, { clock });
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  [shortPlan, longPlan, outsider] = await Promise.all([
    server.user({ firstName: 'Sana' }),
    server.user({ firstName: 'Leo' }),
    server.user({ firstName: 'Omar' }),
  ]);
  racers = await Promise.all([1, 2, 3, 4, 5].map((i) => server.user({ firstName: `Racer${i}` })));
  const dietitian = await callerFor(server, admin.token);
  const weekly = [1, 2, 3, 4, 5, 6].flatMap((weekday) => [
    { weekday, kind: 'hours' as const, startMinute: 600, endMinute: 780 },
    { weekday, kind: 'hours' as const, startMinute: 840, endMinute: 1080 },
  ]);
  weekly.push({ weekday: 1, kind: 'break' as never, startMinute: 690, endMinute: 720 });
  await dietitian.admin.appointments.saveAvailability({
    consultationMinutes: 20,
    followUpMinutes: 30,
    bufferMinutes: 15,
    bookable: true,
    weekly,
    exceptions: [{ day: '2026-10-21', kind: 'off', startMinute: null, endMinute: null, note: 'Conference' }],
  });
  const assign = (clientId: number, planId: 'tier-kickstart' | 'tier-commitment') =>
    dietitian.admin.subscriptions.assign({ clientId, planType: 'WL', planId, startDate: '2026-10-01', amountReceived: 1000 });
  await assign(shortPlan.id, 'tier-kickstart');
  await assign(longPlan.id, 'tier-commitment');
  for (const r of racers) await assign(r.id, 'tier-commitment');
  await assign(outsider.id, 'tier-commitment');
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describe('slots', () => {
  it('offers a visitor free consultations without sign-in, in their own time zone beside India time', async () => {
    const dubai = await get('/appointments/slots?kind=consultation&from=2026-10-20&to=2026-10-21&tz=Asia/Dubai');
    const india = await get('/appointments/slots?kind=consultation&from=2026-10-20&to=2026-10-21&tz=Asia/Kolkata');
    expect(dubai.status).toBe(200);
    const first = dubai.body.data.slots[0];
    expect(first.start).toBe(ist('2026-10-20', '10:00').toISOString());
    // One instant: 08:30 in Dubai (UTC+4) is 10:00 in India (UTC+5:30).
    expect(first.local).toMatchObject({ date: '2026-10-20', time: '08:30' });
    expect(first.india).toMatchObject({ date: '2026-10-20', time: '10:00' });
    expect(india.body.data.slots[0].start).toBe(first.start);
    expect(india.body.data.slots[0].local).toMatchObject({ date: '2026-10-20', time: '10:00' });
    // 20 minutes plus a 15-minute buffer apart.
    expect(dubai.body.data.slots[1].india.time).toBe('10:35');
  });

  it('keeps breaks, days off and the minimum notice', async () => {
    const monday = await get('/appointments/slots?kind=follow_up&from=2026-10-19&to=2026-10-20', longPlan.token);
    const times = monday.body.data.slots.map((s: { india: { time: string } }) => s.india.time);
    expect(times[0]).toBe('10:00');
    expect(times).not.toContain('11:30');
    expect(times).toContain('12:00');
    const dayOff = await get('/appointments/slots?kind=follow_up&from=2026-10-21&to=2026-10-22', longPlan.token);
    expect(dayOff.body.data.slots).toEqual([]);
    const sunday = await get('/appointments/slots?kind=follow_up&from=2026-10-25&to=2026-10-26', longPlan.token);
    expect(sunday.body.data.slots).toEqual([]);
    expect((await get('/appointments/slots?kind=follow_up')).status).toBe(401);
  });

  it('follows a London client across the October change of clocks (and the March one)', async () => {
    const res = await get('/appointments/slots?kind=follow_up&from=2026-10-23&to=2026-10-27&tz=Europe/London', longPlan.token);
    const at10 = res.body.data.slots.filter((s: { india: { time: string } }) => s.india.time === '10:00');
    const byDay = Object.fromEntries(
      at10.map((s: { india: { date: string }; local: { time: string; zone: string } }) => [s.india.date, s.local]),
    );
    // Friday 23 October: British Summer Time (UTC+1); Monday 26 October: Greenwich Mean Time.
    expect(byDay['2026-10-23']).toMatchObject({ time: '05:30', zone: 'BST' });
    expect(byDay['2026-10-26']).toMatchObject({ time: '04:30', zone: 'GMT' });
    const saved = now;
    try {
      now = new Date('2027-03-22T03:30:00Z');
      const spring = await get('/appointments/slots?kind=consultation&from=2027-03-26&to=2027-03-30&tz=Europe/London');
      const springAt10 = Object.fromEntries(
        spring.body.data.slots
          .filter((s: { india: { time: string } }) => s.india.time === '10:00')
          .map((s: { india: { date: string }; local: { time: string } }) => [s.india.date, s.local.time]),
      );
      expect(springAt10['2027-03-26']).toBe('04:30');
      expect(springAt10['2027-03-29']).toBe('05:30');
    } finally {
      now = saved;
    }
  });

  it('refuses bad ranges and time zones with clear 400s', async () => {
    expect((await get('/appointments/slots?kind=consultation&tz=Mars/Olympus')).status).toBe(400);
    expect((await get('/appointments/slots?kind=consultation&from=2026-10-30&to=2026-10-20')).status).toBe(400);
    expect((await get('/appointments/slots?kind=consultation&from=2026-10-01&to=2026-12-30')).status).toBe(400);
    expect((await get('/appointments/slots?kind=lunch')).status).toBe(400);
  });
});

describe('booking', () => {
  const raceSlot = ist('2026-10-22', '14:00');

  it('gives a slot to exactly one of several concurrent bookings; the others get 409 with the next free slots', async () => {
    const answers = await Promise.all(racers.map((r) => book(r.token, raceSlot)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    const next = refused.body.data.nextSlots as { start: string }[];
    expect(next.length).toBeGreaterThan(0);
    expect(next.map((s) => s.start)).not.toContain(raceSlot.toISOString());
    const won = answers.find((a) => a.status === 201)!;
    expect(won.body.data.callPath).toBe(`/call/${won.body.data.id}`);
    // The slot is gone for everyone.
    const left = await get('/appointments/slots?kind=consultation&from=2026-10-22&to=2026-10-23');
    expect(left.body.data.slots.map((s: { start: string }) => s.start)).not.toContain(raceSlot.toISOString());
  });

  it('is idempotent on clientRequestId', async () => {
    const key = randomUUID();
    const first = await book(racers[1]!.token, ist('2026-10-27', '10:00'), key);
    const again = await book(racers[1]!.token, ist('2026-10-27', '10:00'), key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, repeated: true });
    // The same key for another time is another booking: refused, naming the time, and nothing is booked.
    const moved = await book(racers[1]!.token, ist('2026-10-27', '11:00'), key);
    expect([moved.status, moved.body.message]).toEqual([
      422,
      'This clientRequestId was already used with different details (start). Send it with a new key.',
    ]);
  });

  it('refuses a time that was never offered, or has passed', async () => {
    const odd = await book(racers[2]!.token, ist('2026-10-27', '10:07'));
    expect(odd.status).toBe(400);
    expect(odd.body.data.fieldErrors.start).toBeDefined();
    expect((await book(racers[2]!.token, ist('2026-10-19', '08:00'))).status).toBe(400);
    const bare = await post('/appointments', racers[2]!.token, {
      start: '2026-10-27T10:00:00',
      kind: 'follow_up',
      clientRequestId: randomUUID(),
    });
    expect(bare.status).toBe(400);
  });

  it('the database itself refuses two appointments over one dietitian’s time', async () => {
    const { sql } = await import('kysely');
    const db = server.deps.db;
    const row = await db
      .selectFrom('appointments')
      .select(['dietitian_id', 'client_id'])
      .where('status', '=', 'booked')
      .executeTakeFirstOrThrow();
    await expect(
      sql`insert into appointments (client_id, dietitian_id, kind, starts_at, ends_at, busy_until)
          values (${row.client_id}, ${row.dietitian_id}, 'follow_up', ${ist('2026-10-22', '14:10').toISOString()}, ${ist('2026-10-22', '14:40').toISOString()}, ${ist('2026-10-22', '14:55').toISOString()})`.execute(
        db,
      ),
    ).rejects.toThrow(/appointments_no_overlap|exclusion/);
  });
});

describe('entitlements', () => {
  it('a one-month plan includes two follow-ups a month', async () => {
    expect((await book(shortPlan.token, ist('2026-10-20', '10:00'))).status).toBe(201);
    expect((await book(shortPlan.token, ist('2026-10-22', '10:00'))).status).toBe(201);
    const third = await book(shortPlan.token, ist('2026-10-23', '10:00'));
    expect(third.status).toBe(403);
    expect(third.body.message).toMatch(/2 follow-ups a month/);
    const mine = await get('/appointments?tz=Asia/Kolkata', shortPlan.token);
    expect(mine.body.data.entitlement).toMatchObject({ rule: 'monthly', perMonth: 2, leftThisMonth: 0 });
    expect(mine.body.data.upcoming).toHaveLength(2);
    expect(mine.body.data.upcoming[0].callPath).toMatch(/^\/call\/\d+$/);
  });

  it('a longer plan includes one follow-up a week, and shows the weeks left this month', async () => {
    const before = await get('/appointments', longPlan.token);
    // Weeks beginning on the Mondays of October from this one: 19 and 26 October.
    expect(before.body.data.entitlement).toMatchObject({ rule: 'weekly', perMonth: 4, leftThisMonth: 2 });
    expect((await book(longPlan.token, ist('2026-10-20', '14:00'))).status).toBe(201);
    expect((await book(longPlan.token, ist('2026-10-23', '14:00'))).status).toBe(403);
    expect((await book(longPlan.token, ist('2026-10-27', '14:00'))).status).toBe(201);
    const after = await get('/appointments', longPlan.token);
    expect(after.body.data.entitlement.leftThisMonth).toBe(0);
  });

  it('no running plan, no follow-up', async () => {
    const visitorLike = await server.user({ firstName: 'Nia' });
    const res = await book(visitorLike.token, ist('2026-10-28', '10:00'));
    expect(res.status).toBe(403);
  });
});

describe('changes and the 12-hour rule', () => {
  it('a client moves and cancels until 12 hours before; later only the dietitian can', async () => {
    const booked = await book(outsider.token, ist('2026-10-20', '16:15'));
    expect(booked.status).toBe(201);
    const id = booked.body.data.id as number;
    await server.deps.mailer.drain();
    const mailsBefore = server.mails.length;
    // 12.5 hours before: the client may move it.
    now = new Date(ist('2026-10-20', '16:15').getTime() - 12.5 * 3_600_000);
    const moved = await post(`/appointments/${id}/reschedule`, outsider.token, {
      start: ist('2026-10-20', '17:00').toISOString(),
      tz: 'Asia/Dubai',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.local.time).toBe('15:30');
    await server.deps.mailer.drain();
    const movedMail = server.mails.slice(mailsBefore).find((m) => m.to === outsider.email && /moved/.test(m.subject))!;
    expect(movedMail).toBeDefined();
    expect(movedMail.attachments?.[0]?.content).toMatch(/BEGIN:VCALENDAR[\s\S]*UID:appointment-\d+@/);
    // 11 hours before the new time: too late for the client.
    now = new Date(ist('2026-10-20', '17:00').getTime() - 11 * 3_600_000);
    const late = await post(`/appointments/${id}/cancel`, outsider.token, { reason: 'Travelling' });
    expect(late.status).toBe(403);
    const lateMove = await post(`/appointments/${id}/reschedule`, outsider.token, { start: ist('2026-10-20', '17:45').toISOString() });
    expect(lateMove.status).toBe(403);
    const list = await get('/appointments', outsider.token);
    expect(list.body.data.upcoming.find((a: { id: number }) => a.id === id).canChange).toBe(false);
    // The dietitian still can, with a message to the client.
    const dietitian = await callerFor(server, admin.token);
    await server.deps.mailer.drain();
    const count = server.mails.length;
    const cancelled = await dietitian.admin.appointments.cancel({ id, message: 'I am unwell today; please book another time.' });
    expect(cancelled.status).toBe('cancelled');
    await server.deps.mailer.drain();
    const mail = server.mails.slice(count).find((m) => m.to === outsider.email && /cancelled/.test(m.subject))!;
    expect(mail.text).toMatch(/unwell/);
    expect(mail.attachments?.[0]?.content).toMatch(/METHOD:CANCEL/);
    now = new Date('2026-10-19T03:30:00Z');
  });

  it('serves the .ics only to the client and the dietitians', async () => {
    const mine = await get('/appointments', shortPlan.token);
    const id = mine.body.data.upcoming[0].id;
    const own = await get(`/appointments/${id}/ics`, shortPlan.token);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toMatch(/text\/calendar/);
    expect(own.body).toMatch(/BEGIN:VEVENT/);
    expect((await get(`/appointments/${id}/ics`, admin.token)).status).toBe(200);
    expect((await get(`/appointments/${id}/ics`, outsider.token)).status).toBe(404);
    expect((await post(`/appointments/${id}/cancel`, outsider.token, {})).status).toBe(404);
  });
});

describe('visitor consultations', () => {
  const form = {
    name: 'Asha Verma',
    gender: 2,
    age: 31,
    height: '5.4',
    weight: 62,
    state: 'Karnataka',
    contact: '9876500011',
    country: 356,
    isMedicalCondition: false,
  };

  it('holds a chosen slot with the request and books it once confirmed; a taken slot stores nothing; a callback needs no slot', async () => {
    const slot = ist('2026-10-23', '14:35');
    const withSlot = await post('/client/book-consultation', undefined, {
      ...form,
      email: 'asha@example.test',
      slot: slot.toISOString(),
      tz: 'Asia/Dubai',
    });
    expect(withSlot.status).toBe(201);
    // Held, not booked, until the visitor confirms it with the mailed link.
    expect(withSlot.body.message).toMatch(/holding/);
    await server.deps.mailer.drain();
    const link = /\/confirm-consultation\?hold=(\d+)&exp=(\d+)&sig=([\w-]+)/.exec(
      server.mails.find((m) => m.to === 'asha@example.test')?.text ?? '',
    );
    expect(link).not.toBeNull();
    const confirmed = await post('/client/confirm-consultation', undefined, { hold: link![1], exp: link![2], sig: link![3] });
    expect(confirmed.status).toBe(200);
    const row = await server.deps.db
      .selectFrom('appointments')
      .selectAll()
      .where('consultation_id', '=', withSlot.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.kind).toBe('consultation');
    expect(row.starts_at.toISOString()).toBe(slot.toISOString());
    await server.deps.mailer.drain();
    expect(server.mails.some((m) => m.to === 'asha@example.test' && m.attachments?.some((a) => a.filename.endsWith('.ics')))).toBe(true);

    const before = await server.deps.db
      .selectFrom('consultations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const taken = await post('/client/book-consultation', undefined, {
      ...form,
      contact: '9876500012',
      email: 'ravi@example.test',
      slot: slot.toISOString(),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.data.nextSlots.length).toBeGreaterThan(0);
    const after = await server.deps.db
      .selectFrom('consultations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const callback = await post('/client/book-consultation', undefined, { ...form, contact: '9876500013', email: 'kiran@example.test' });
    expect(callback.status).toBe(201);
  });

  it('refuses an e-mail field that is not one address with 400, also with a slot chosen', async () => {
    const slot = ist('2026-10-23', '15:10');
    for (const email of ['not-an-address', 'a@example.test, b@example.test']) {
      const res = await post('/client/book-consultation', undefined, { ...form, contact: '9876500014', email, slot: slot.toISOString() });
      expect(res.status).toBe(400);
      expect(res.body.data.fieldErrors.email).toEqual(['Enter a valid email address, like name@example.com']);
    }
  });
});

describe('reminders', () => {
  it('sends the 24-hour and 1-hour reminders exactly once each, across a restart and a move', async () => {
    const client = racers[3]!;
    const start = ist('2026-10-29', '10:00');
    const booked = await book(client.token, start);
    expect(booked.status).toBe(201);
    const id = booked.body.data.id as number;
    const deps = { db: server.deps.db, mailer: server.deps.mailer, logger: server.deps.logger, config: server.deps.config };
    const mine = () => server.mails.filter((m) => m.to === client.email && /Reminder|starts in an hour/.test(m.subject));

    now = new Date(start.getTime() - 23.5 * 3_600_000);
    await Promise.all([sendAppointmentReminders(deps, now), sendAppointmentReminders(deps, now)]);
    // A "restart": a new process (its own mailer) sweeping the same database.
    const restarted = { ...deps, mailer: createMailer({ db: server.deps.db, logger: server.deps.logger, from: 'test@poshan.example' }) };
    expect(await sendAppointmentReminders(restarted, now)).toBe(0);
    await server.deps.mailer.drain();
    expect(mine().map((m) => m.subject)).toEqual(['Reminder: your follow-up is tomorrow']);

    // Moved 45 minutes later, 20 hours before: the new time's 24-hour moment had passed when it was set, so no
    // second "tomorrow" reminder (the change mail told the new time); its 1-hour reminder goes once.
    now = new Date(start.getTime() - 20 * 3_600_000);
    expect(await sendAppointmentReminders(deps, now)).toBe(0);
    const moved = await post(`/appointments/${id}/reschedule`, client.token, { start: ist('2026-10-29', '10:45').toISOString() });
    expect(moved.status).toBe(200);
    now = new Date(ist('2026-10-29', '10:45').getTime() - 23 * 3_600_000);
    expect(await sendAppointmentReminders(deps, now)).toBe(0);

    now = new Date(ist('2026-10-29', '10:45').getTime() - 50 * 60_000);
    expect(await sendAppointmentReminders(deps, now)).toBe(1);
    expect(await sendAppointmentReminders(restarted, now)).toBe(0);
    await server.deps.mailer.drain();
    expect(mine().map((m) => m.subject)).toEqual(['Reminder: your follow-up is tomorrow', 'Your follow-up starts in an hour']);
    const kept = await server.deps.db.selectFrom('appointment_reminders').select('which').where('appointment_id', '=', id).execute();
    expect(kept.map((r) => r.which).sort()).toEqual(['1h', '24h']);
    now = new Date('2026-10-19T03:30:00Z');
  });

  it('runs the sweep on the job queue', async () => {
    expect(APPOINTMENT_REMINDER_JOB).toBe('appointment-reminders');
    await server.deps.jobs.send(APPOINTMENT_REMINDER_JOB);
  });
});

describe('console', () => {
  it('shows every dietitian’s week, today’s list, and marks done or no-show once started', async () => {
    const dietitian = await callerFor(server, admin.token);
    const week = await dietitian.admin.appointments.calendar({ from: '2026-10-19', days: 14 });
    expect(week.appointments.length).toBeGreaterThan(5);
    expect(week.dietitians.map((d) => d.id)).toContain(admin.id);
    const first = week.appointments.find((a) => a.status === 'booked')!;
    await expect(dietitian.admin.appointments.mark({ id: first.id, status: 'done' })).rejects.toThrow(/once it has started/);
    now = new Date(first.start.getTime() + 5 * 60_000);
    const today = await dietitian.admin.appointments.today();
    expect(today.appointments.map((a) => a.id)).toContain(first.id);
    expect((await dietitian.admin.appointments.mark({ id: first.id, status: 'no_show' })).status).toBe('no_show');
    now = new Date('2026-10-19T03:30:00Z');
    const client = await callerFor(server, shortPlan.token);
    await expect(client.admin.appointments.calendar({ from: '2026-10-19', days: 7 })).rejects.toThrow();
  });
});
