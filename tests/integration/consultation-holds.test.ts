import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_MINUTES, MAX_LIVE_HOLDS_PER_EMAIL, MAX_LIVE_HOLDS_PER_IP, visitorWords } from '../../server/consultation/schema.js';
import { createCaller } from '../../server/trpc/root.js';
import { createContextInner } from '../../server/trpc/context.js';
import { sampleBooking } from '../helpers/booking.js';
import { callerFor } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { freshIp, fromIp } from '../helpers/sign-in.js';

/**
 * A visitor's chosen consultation time is held, not booked, until they confirm it with the mail's link or
 * a dietitian accepts the request; holds are capped per address and per e-mail, expire after HOLD_MINUTES,
 * and never keep a paying client from a time. On whichever database the run uses (PGlite, or Postgres
 * with TEST_DATABASE_URL).
 *
 * The clock starts on Monday 19 October 2026, 09:00 in India. The dietitian works Monday to Saturday
 * 10:00–13:00 and 14:00–18:00 India time; consultations are 20 minutes and follow-ups 30, with a
 * 15-minute buffer.
 */
let now = new Date('2026-10-19T03:30:00Z');
const clock = () => now;
const ist = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:30`);

let server: TestServer;
let admin: TestUser;
let clients: TestUser[];
let contacts = 0;

const visitor = (email: string) => {
  contacts += 1;
  return { ...sampleBooking, name: 'Asha Verma', email, contact: String(9_100_000_000 + contacts) };
};
const request = (email: string, slot: Date | undefined, ip: string) =>
  server.request('POST', '/api/client/book-consultation', {
    body: { ...visitor(email), ...(slot ? { slot: slot.toISOString(), tz: 'Asia/Kolkata' } : {}) },
    headers: fromIp(ip),
  });
const consultationSlots = async (from: string, to: string, token?: string) =>
  (await server.request('GET', `/api/appointments/slots?kind=consultation&from=${from}&to=${to}`, { token })).body.data.slots.map(
    (s: { start: string }) => s.start,
  ) as string[];
const followUpSlots = async (token: string, from: string, to: string) =>
  (await server.request('GET', `/api/appointments/slots?kind=follow_up&from=${from}&to=${to}`, { token })).body.data.slots.map(
    (s: { start: string }) => s.start,
  ) as string[];
const holdsOf = (consultationId: number) =>
  server.deps.db.selectFrom('consultation_holds').selectAll().where('consultation_id', '=', consultationId).executeTakeFirst();
const appointmentOf = (consultationId: number) =>
  server.deps.db.selectFrom('appointments').selectAll().where('consultation_id', '=', consultationId).executeTakeFirst();

/** The hold, exp and sig of the newest confirm link mailed to this address. */
function confirmLink(email: string) {
  const mail = server.mails.filter((m) => m.to === email && m.text.includes('/confirm-consultation')).at(-1);
  const match = mail && /\/confirm-consultation\?hold=(\d+)&exp=(\d+)&sig=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no confirm link mailed to ${email}`);
  return { hold: match[1]!, exp: match[2]!, sig: match[3]! };
}
const confirm = (link: unknown) => server.request('POST', '/api/client/confirm-consultation', { body: link });

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://poshan.example', TRUST_PROXY: '1' }, { clock });
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  clients = await Promise.all([1, 2, 3].map((i) => server.user({ firstName: `Client${i}` })));
  const dietitian = await callerFor(server, admin.token);
  await dietitian.admin.appointments.saveAvailability({
    consultationMinutes: 20,
    followUpMinutes: 30,
    bufferMinutes: 15,
    bookable: true,
    weekly: [1, 2, 3, 4, 5, 6].flatMap((weekday) => [
      { weekday, kind: 'hours' as const, startMinute: 600, endMinute: 780 },
      { weekday, kind: 'hours' as const, startMinute: 840, endMinute: 1080 },
    ]),
    exceptions: [],
  });
  for (const c of clients) {
    await dietitian.admin.subscriptions.assign({
      clientId: c.id,
      planType: 'WL',
      planId: 'tier-commitment',
      startDate: '2026-10-01',
      amountReceived: 1000,
    });
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describe('caps', () => {
  it(`twenty anonymous requests from one address hold at most ${MAX_LIVE_HOLDS_PER_IP} times; the rest are callback requests`, async () => {
    const ip = freshIp();
    const slots = (await consultationSlots('2026-10-22', '2026-10-24')).slice(0, 20);
    expect(slots).toHaveLength(20);
    const answers = await Promise.all(slots.map((slot, i) => request(`flood-${i}@example.test`, new Date(slot), ip)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const held = answers.filter((a) => /holding/.test(a.body.message));
    const notHeld = answers.filter((a) => /could not hold/.test(a.body.message));
    expect(held).toHaveLength(MAX_LIVE_HOLDS_PER_IP);
    expect(notHeld).toHaveLength(20 - MAX_LIVE_HOLDS_PER_IP);
    const ids = answers.map((a) => a.body.data.id as number);
    const holds = await server.deps.db.selectFrom('consultation_holds').select('id').where('consultation_id', 'in', ids).execute();
    expect(holds).toHaveLength(MAX_LIVE_HOLDS_PER_IP);
    // Nothing is booked on the calendar until a hold is confirmed.
    const booked = await server.deps.db.selectFrom('appointments').select('id').where('consultation_id', 'in', ids).execute();
    expect(booked).toEqual([]);
    // The callback requests' mails say no time was held, and carry no confirm link.
    await server.deps.mailer.drain();
    const floodMails = server.mails.filter((m) => /^flood-\d+@example\.test$/.test(m.to));
    expect(floodMails.filter((m) => /could not hold/.test(m.text))).toHaveLength(20 - MAX_LIVE_HOLDS_PER_IP);
    expect(floodMails.filter((m) => m.text.includes('/confirm-consultation'))).toHaveLength(MAX_LIVE_HOLDS_PER_IP);
  });

  it(`one e-mail address holds at most ${MAX_LIVE_HOLDS_PER_EMAIL} times, whatever address it comes from`, async () => {
    const slots = await consultationSlots('2026-10-27', '2026-10-28');
    const answers = [];
    for (let i = 0; i < MAX_LIVE_HOLDS_PER_EMAIL + 2; i++) answers.push(await request('same@example.test', new Date(slots[i]!), freshIp()));
    expect(answers.map((a) => a.status)).toEqual(Array(MAX_LIVE_HOLDS_PER_EMAIL + 2).fill(201));
    expect(answers.filter((a) => /holding/.test(a.body.message))).toHaveLength(MAX_LIVE_HOLDS_PER_EMAIL);
  });
});

describe('a held time', () => {
  it('is kept from other visitors but never from a paying client, whose booking releases it and tells the visitor', async () => {
    const slot = ist('2026-10-20', '10:00');
    const held = await request('held@example.test', slot, freshIp());
    expect(held.status).toBe(201);
    expect(held.body.message).toMatch(/holding .* until .*It is booked only once you confirm it/);
    expect(await consultationSlots('2026-10-20', '2026-10-21')).not.toContain(slot.toISOString());
    const other = await request('other@example.test', slot, freshIp());
    expect(other.status).toBe(409);

    const [client] = clients;
    expect(await followUpSlots(client!.token, '2026-10-20', '2026-10-21')).toContain(slot.toISOString());
    const booked = await server.request('POST', '/api/appointments', {
      token: client!.token,
      body: { start: slot.toISOString(), kind: 'follow_up', clientRequestId: randomUUID() },
    });
    expect(booked.status).toBe(201);
    expect((await holdsOf(held.body.data.id))?.status).toBe('released');
    await server.deps.mailer.drain();
    expect(server.mails.some((m) => m.to === 'held@example.test' && /no longer free/.test(m.subject))).toBe(true);

    // The visitor's link now says the time went, and books nothing.
    const late = await confirm(confirmLink('held@example.test'));
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/no longer free/);
    expect(await appointmentOf(held.body.data.id)).toBeUndefined();
  });

  it('becomes the visitor’s appointment when they confirm it with the mailed link (once)', async () => {
    // 14:00 is on both the consultation and the follow-up grid.
    const slot = ist('2026-10-20', '14:00');
    const held = await request('confirms@example.test', slot, freshIp());
    expect(held.status).toBe(201);
    await server.deps.mailer.drain();
    const mail = server.mails.filter((m) => m.to === 'confirms@example.test').at(-1)!;
    expect(mail.text).toMatch(/We are holding .* until .*It is booked only once you confirm it/s);
    const link = confirmLink('confirms@example.test');
    const team = await server.deps.db
      .selectFrom('outbox')
      .select('body_text')
      .where('subject', 'like', `Consultation request #${held.body.data.id} %`)
      .executeTakeFirstOrThrow();
    expect(team.body_text).toMatch(/Held time: .* Marking the request contacted books it for them\./);

    expect((await confirm({ ...link, sig: `${link.sig.slice(0, -2)}AA` })).status).toBe(400);
    expect(await appointmentOf(held.body.data.id)).toBeUndefined();

    const done = await confirm(link);
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ confirmed: true });
    const row = await appointmentOf(held.body.data.id);
    expect(row).toMatchObject({ kind: 'consultation', status: 'booked' });
    expect(row!.starts_at.toISOString()).toBe(slot.toISOString());
    expect(await holdsOf(held.body.data.id)).toMatchObject({ status: 'confirmed', appointment_id: row!.id });
    await server.deps.mailer.drain();
    expect(server.mails.some((m) => m.to === 'confirms@example.test' && m.attachments?.some((a) => a.filename.endsWith('.ics')))).toBe(
      true,
    );

    const again = await confirm(link);
    expect(again.status).toBe(200);
    const rows = await server.deps.db.selectFrom('appointments').select('id').where('consultation_id', '=', held.body.data.id).execute();
    expect(rows).toHaveLength(1);
    // A confirmed time is a real appointment: a client can no longer book it.
    const clash = await server.request('POST', '/api/appointments', {
      token: clients[1]!.token,
      body: { start: slot.toISOString(), kind: 'follow_up', clientRequestId: randomUUID() },
    });
    expect(clash.status).toBe(409);
  });

  it('becomes the visitor’s appointment when a dietitian takes up the request; closing one frees its time', async () => {
    const slot = ist('2026-10-23', '10:35');
    const held = await request('accepted@example.test', slot, freshIp());
    const dietitian = await callerFor(server, admin.token);
    const answer = await dietitian.admin.bookings.update({ id: held.body.data.id, status: 'contacted' });
    expect(answer.message).toMatch(/now their appointment/);
    expect(await appointmentOf(held.body.data.id)).toMatchObject({ kind: 'consultation', status: 'booked' });

    const other = ist('2026-10-23', '11:10');
    const closed = await request('closed@example.test', other, freshIp());
    expect(await consultationSlots('2026-10-23', '2026-10-24')).not.toContain(other.toISOString());
    await dietitian.admin.bookings.update({ id: closed.body.data.id, status: 'closed' });
    expect(await consultationSlots('2026-10-23', '2026-10-24')).toContain(other.toISOString());
    expect(await appointmentOf(closed.body.data.id)).toBeUndefined();
  });

  it(`is free again once ${HOLD_MINUTES} minutes pass unconfirmed; the late link books nothing`, async () => {
    const slot = ist('2026-10-24', '14:00');
    const held = await request('expires@example.test', slot, freshIp());
    expect(held.status).toBe(201);
    expect(await consultationSlots('2026-10-24', '2026-10-25')).not.toContain(slot.toISOString());
    const link = confirmLink('expires@example.test');
    const saved = now;
    try {
      now = new Date(now.getTime() + (HOLD_MINUTES + 1) * 60_000);
      expect(await consultationSlots('2026-10-24', '2026-10-25')).toContain(slot.toISOString());
      const late = await confirm(link);
      expect(late.status).toBe(400);
      expect(late.body.message).toMatch(/expired/);
      // Another visitor may hold it now.
      const next = await request('next@example.test', slot, freshIp());
      expect(next.status).toBe(201);
      expect(next.body.message).toMatch(/holding/);
      expect(await appointmentOf(held.body.data.id)).toBeUndefined();
    } finally {
      now = saved;
    }
  });

  describe('what a visitor in another zone is told', () => {
    it('the screen, the held mail, the confirm page and the booked mail say the same time in her zone, with the .ics and the guest call link', async () => {
      const slot = ist('2026-10-21', '14:00');
      const tz = 'Europe/London';
      const anyone = createCaller(createContextInner({ deps: server.deps, meta: { ip: freshIp() } }));
      const booked = await anyone.consultation.book({ ...visitor('london@example.test'), slot, tz });
      expect(booked.outcome).toBe('held');
      expect(booked.time?.start.toISOString()).toBe(slot.toISOString());
      const held = visitorWords({ state: 'held', start: slot, heldUntil: booked.time!.heldUntil!, phone: booked.phone, tz });
      expect(held.lead).toContain('Wed 21 Oct, 14:00 IST (your time: Wed 21 Oct, 09:30 in London)');
      await server.deps.mailer.drain();
      const heldMail = server.mails.filter((m) => m.to === 'london@example.test').at(-1)!;
      expect(heldMail.subject).toBe(`${held.title} (request #${booked.data.id})`);
      for (const line of [held.lead, ...held.steps]) expect(heldMail.text).toContain(line);

      // The console's Bookings lists the held time, in the visitor's zone too.
      const dietitian = await callerFor(server, admin.token);
      const listed = await dietitian.admin.bookings.get({ id: booked.data.id });
      expect(listed?.time).toMatchObject({ state: 'held', start: slot, timeZone: tz });

      const confirmed = await anyone.consultation.confirmHold(confirmLink('london@example.test'));
      const appointment = confirmed.appointment!;
      expect(appointment.start.toISOString()).toBe(slot.toISOString());
      // The .ics names the same instant (UTC), and the call link is the guest link, no sign-in needed.
      expect(appointment.ics).toContain('DTSTART:20261021T083000Z');
      expect(appointment.callUrl).toMatch(/^https:\/\/poshan\.example\/call\/guest\/\d+\?v=\d+&exp=\d+&sig=[\w-]+$/);
      const words = visitorWords({ state: 'booked', start: slot, dietitianName: appointment.dietitianName, tz });
      expect(confirmed.message).toBe(`${words.title}. ${words.lead}`);
      await server.deps.mailer.drain();
      const bookedMail = server.mails.filter((m) => m.to === 'london@example.test').at(-1)!;
      expect(bookedMail.subject).toBe(words.title);
      for (const line of [words.lead, ...words.steps]) expect(bookedMail.text).toContain(line);
      expect(bookedMail.text).toContain(appointment.callUrl);
      expect(bookedMail.text).not.toMatch(/we call you|agree a time/i);
      const ics = bookedMail.attachments?.find((a) => a.filename.endsWith('.ics'));
      expect(ics?.content).toContain('DTSTART:20261021T083000Z');
      expect(ics?.content.replace(/\r\n[ \t]/g, '')).toContain(appointment.callUrl);

      const after = await dietitian.admin.bookings.get({ id: booked.data.id });
      expect(after?.time).toMatchObject({ state: 'booked', start: slot });
    });
  });
});
