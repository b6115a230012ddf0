import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppointmentEvent } from '../../server/appointments/schema.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { received } from '../helpers/until.js';

/**
 * Appointments live (appointments.events), the weekly entitlement by India-time calendar week, and a session
 * booked for today. The dietitian is open every day round the clock (30-minute follow-ups, no buffer), so
 * times either side of an India-time midnight can be booked.
 */
let now = new Date('2026-10-19T03:30:00Z'); // Monday 19 October 2026, 09:00 in India
const clock = () => now;
const ist = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:30`);

let server: TestServer;
let admin: TestUser;
const sockets: ReturnType<typeof wsClient>[] = [];

async function clientWithPlan(
  firstName: string,
  planId: 'tier-kickstart' | 'tier-commitment' = 'tier-commitment',
  startDate = '2026-10-01',
) {
  const client = await server.user({ firstName });
  const dietitian = await callerFor(server, admin.token);
  await dietitian.admin.subscriptions.assign({ clientId: client.id, planType: 'WL', planId, startDate, amountReceived: 1000 });
  return client;
}

const book = async (who: TestUser, start: Date) =>
  (await callerFor(server, who.token)).appointments.book({ start, kind: 'follow_up', clientRequestId: randomUUID() });

/** Subscribes as `who` and collects the events; resolves once the stream is live. */
async function listen(who: TestUser) {
  const socket = wsClient(server.url, who.token);
  sockets.push(socket);
  const events: AppointmentEvent[] = [];
  const subscription = socket.client.appointments.events.subscribe(undefined, { onData: (e) => events.push(e as AppointmentEvent) });
  await received(events, (e) => e.kind === 'ready');
  return { events, stop: () => subscription.unsubscribe() };
}

const weekly = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, kind: 'hours' as const, startMinute: 0, endMinute: 1440 }));
const availability = { consultationMinutes: 30, followUpMinutes: 30, bufferMinutes: 0, bookable: true, weekly, exceptions: [] };

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  await (await callerFor(server, admin.token)).admin.appointments.saveAvailability(availability);
}, 240_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.stop();
});

describe('appointments live', () => {
  it('a client hears of her own appointments, a dietitian of all, anyone else only that the free times changed', async () => {
    now = new Date('2026-10-19T03:30:00Z');
    const [asha, ravi] = await Promise.all([clientWithPlan('Asha'), clientWithPlan('Ravi')]);
    const [meera, ashas, ravis] = await Promise.all([listen(admin), listen(asha), listen(ravi)]);
    const dietitian = await callerFor(server, admin.token);

    const booked = await book(asha, ist('2026-10-20', '10:00'));
    const changed = { kind: 'changed', appointmentId: booked.id };
    expect(await received(meera.events, (e) => e.kind === 'changed')).toEqual({ ...changed, what: 'booked' });
    expect(await received(ashas.events, (e) => e.kind === 'changed')).toEqual({ ...changed, what: 'booked' });
    await received(ravis.events, (e) => e.kind === 'slots');

    await dietitian.admin.appointments.move({ id: booked.id, start: ist('2026-10-20', '11:00'), message: null });
    await received(ashas.events, (e) => e.kind === 'changed' && e.what === 'moved');
    await received(meera.events, (e) => e.kind === 'changed' && e.what === 'moved');

    const slotsBefore = ravis.events.filter((e) => e.kind === 'slots').length;
    await (await callerFor(server, asha.token)).appointments.cancel({ id: booked.id, reason: null });
    await received(meera.events, (e) => e.kind === 'changed' && e.what === 'cancelled');
    await received(ashas.events, (e) => e.kind === 'changed' && e.what === 'cancelled');
    await expect.poll(() => ravis.events.filter((e) => e.kind === 'slots').length).toBeGreaterThan(slotsBefore);

    // A session marked done or missed: its client and the dietitians hear of it; it frees no time, so no one else.
    const ravisOwn = await book(ravi, ist('2026-10-19', '10:30'));
    now = ist('2026-10-19', '10:35');
    await dietitian.admin.appointments.mark({ id: ravisOwn.id, status: 'done' });
    await received(ravis.events, (e) => e.kind === 'changed' && e.what === 'status');
    await received(meera.events, (e) => e.kind === 'changed' && e.what === 'status');
    // Saved hours change everyone's free times (events arrive in commit order: Asha's 'slots' comes after any of the mark's).
    const ashasSlots = ashas.events.filter((e) => e.kind === 'slots').length;
    await dietitian.admin.appointments.saveAvailability(availability);
    await expect.poll(() => ashas.events.filter((e) => e.kind === 'slots').length).toBeGreaterThan(ashasSlots);
    await received(meera.events, (e) => e.kind === 'slots');

    // Ravi never heard which appointment was Asha's, nor anything else about it; Asha nothing of Ravi's.
    expect(ravis.events.filter((e) => e.kind === 'changed').every((e) => e.kind === 'changed' && e.appointmentId === ravisOwn.id)).toBe(
      true,
    );
    expect(ashas.events.some((e) => e.kind === 'changed' && e.appointmentId === ravisOwn.id)).toBe(false);
    for (const e of [...ravis.events, ...ashas.events]) expect(Object.keys(e).sort()).toEqual(expect.arrayContaining(['kind']));
    expect(JSON.stringify(ravis.events)).not.toMatch(/Asha|Meera|10:00|11:00/);
    for (const s of [meera, ashas, ravis]) s.stop();
  });
});

describe('the weekly entitlement follows India-time calendar weeks', () => {
  it('Sunday 23:00 and Monday 00:30 India time are two weeks (one UTC day); the week runs Monday to Sunday across a month end', async () => {
    now = ist('2026-10-25', '20:00'); // Sunday evening in India, 14:30 UTC
    const leo = await clientWithPlan('Leo');
    const caller = await callerFor(server, leo.token);
    // 17:30 and 19:00 UTC on Sunday 25 October: a UTC week would count them as one.
    const sunday = await book(leo, ist('2026-10-25', '23:00'));
    const monday = await book(leo, ist('2026-10-26', '00:30'));
    expect(sunday.id).not.toBe(monday.id);
    // The week of Monday 26 October ends on Sunday 1 November: its follow-up is taken, whatever the month.
    const sundayAfter = await failure(book(leo, ist('2026-11-01', '23:00')));
    expect(sundayAfter.code).toBe('FORBIDDEN');
    expect(sundayAfter.message).toMatch(/one follow-up a week/);
    const nextWeek = await book(leo, ist('2026-11-02', '00:00'));

    const before = (await caller.appointments.list({ tz: 'Asia/Kolkata' })).entitlement;
    expect(before).toMatchObject({
      rule: 'weekly',
      period: 'week',
      perPeriod: 1,
      periodStart: '2026-10-19',
      periodEnd: '2026-10-25',
      leftThisPeriod: 0,
      fullPeriods: ['2026-10-19', '2026-10-26', '2026-11-02'],
    });
    // Past India-time midnight (still Sunday in UTC): the new week is this week.
    now = ist('2026-10-26', '00:05');
    const after = (await caller.appointments.list({ tz: 'Asia/Kolkata' })).entitlement;
    expect(after).toMatchObject({ periodStart: '2026-10-26', periodEnd: '2026-11-01', leftThisPeriod: 0 });
    expect(after.fullPeriods).toEqual(['2026-10-26', '2026-11-02']);
    // A cancelled follow-up gives its week back.
    now = ist('2026-10-25', '20:00');
    await caller.appointments.cancel({ id: nextWeek.id, reason: null });
    const freed = (await caller.appointments.list({ tz: 'Asia/Kolkata' })).entitlement;
    expect(freed.fullPeriods).toEqual(['2026-10-19', '2026-10-26']);
  });

  it('a one-month plan counts India-time calendar months', async () => {
    now = ist('2026-10-31', '20:00');
    const sana = await clientWithPlan('Sana', 'tier-kickstart', '2026-10-15');
    await book(sana, ist('2026-10-31', '23:00'));
    await book(sana, ist('2026-11-01', '00:30')); // 31 October 19:00 UTC: November in India
    const e = (await (await callerFor(server, sana.token)).appointments.list({})).entitlement;
    expect(e).toMatchObject({ rule: 'monthly', period: 'month', perPeriod: 2, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    expect(e.leftThisPeriod).toBe(1);
    expect(e.fullPeriods).toEqual([]);
  });
});

describe('a session booked for today', () => {
  it('its client may still move or cancel it for 15 minutes after booking it; one the dietitian booked is hers to change', async () => {
    now = ist('2026-10-27', '09:00');
    const nia = await clientWithPlan('Nia');
    const caller = await callerFor(server, nia.token);
    const booked = await book(nia, ist('2026-10-27', '14:00'));
    expect(booked.canChange).toBe(true);
    expect(booked.changeableUntil).toEqual(ist('2026-10-27', '09:15'));
    now = ist('2026-10-27', '09:10');
    expect((await caller.appointments.list({})).upcoming[0]).toMatchObject({ id: booked.id, canChange: true });
    now = ist('2026-10-27', '09:16');
    expect((await caller.appointments.list({})).upcoming[0]).toMatchObject({ id: booked.id, canChange: false });
    const late = await failure(caller.appointments.cancel({ id: booked.id, reason: null }));
    expect(late.code).toBe('FORBIDDEN');

    const omar = await clientWithPlan('Omar');
    const dietitian = await callerFor(server, admin.token);
    const forOmar = await dietitian.appointments.book({
      start: ist('2026-10-27', '15:00'),
      kind: 'follow_up',
      clientRequestId: randomUUID(),
      clientId: omar.id,
    });
    const omars = (await (await callerFor(server, omar.token)).appointments.list({})).upcoming[0]!;
    expect(omars).toMatchObject({ id: forOmar.id, canChange: false });
    expect(omars.changeableUntil).toEqual(ist('2026-10-27', '03:00'));
  });
});

describe('availability', () => {
  it('says what is wrong in words, on the field that is wrong, and starts as taking bookings', async () => {
    const dietitian = await callerFor(server, admin.token);
    const wrong = await failure(
      dietitian.admin.appointments.saveAvailability({
        ...availability,
        weekly: [{ weekday: 2, kind: 'hours', startMinute: 600, endMinute: 540 }],
        exceptions: [{ day: '2026-10-30', kind: 'open', startMinute: null, endMinute: null, note: null }],
      }),
    );
    expect(wrong.code).toBe('BAD_REQUEST');
    expect(wrong.fieldErrors).toMatchObject({
      'weekly.0.endMinute': ['The end time must be after the start time'],
      'exceptions.0.startMinute': ['Extra hours need a start and an end time'],
    });
    expect(JSON.stringify(wrong)).not.toMatch(/startMinute must|endMinute must/);

    const newcomer = await server.user({ role: 'admin', firstName: 'Kiran' });
    const fresh = await dietitian.admin.appointments.availability({ dietitianId: newcomer.id });
    // Nothing saved yet: the form starts on, and says no one can book yet.
    expect(fresh).toMatchObject({ bookable: true, takingBookings: false, weekly: [] });
    const mine = await dietitian.admin.appointments.availability({});
    expect(mine).toMatchObject({ bookable: true, takingBookings: true });
  });
});
