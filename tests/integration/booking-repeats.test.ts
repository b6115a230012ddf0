import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatBookingMessage } from '../../server/consultation/service.js';
import { callerFor } from '../helpers/callers.js';
import { sampleBooking } from '../helpers/booking.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * A visitor who books the same consultation again while the first request is
 * open is told it is in hand, and nothing new is stored or mailed; the
 * console flags bookings that may be the same person twice.
 */
const BOOKED = 'We will call you back. Your request for a free consultation has reached our dietitians.';
let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin' });
});
afterAll(() => server?.stop());

const book = (body: Record<string, unknown>) => server.request('POST', '/api/client/book-consultation', { body });
const bookingsOf = (email: string) =>
  server.deps.db.selectFrom('consultations').select(['id', 'created_at']).where('email', '=', email).orderBy('id').execute();
const mailsAbout = (id: number) =>
  server.deps.db
    .selectFrom('outbox')
    .select('subject')
    .where((eb) => eb.or([eb('subject', 'like', `%#${id} %`), eb('subject', 'like', `%(request #${id})`)]))
    .execute();

describe('a repeat booking', () => {
  it('answers 200 saying the first request is in hand, and stores and mails nothing new', async () => {
    const body = { ...sampleBooking, email: 'twice@example.test', contact: '9811100001' };
    const first = await book(body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ status: 201, message: BOOKED, data: { id: expect.any(Number) } });
    const [stored] = await bookingsOf('twice@example.test');
    const mailsBefore = await mailsAbout(stored!.id);
    expect(mailsBefore.map((m) => m.subject).sort()).toEqual([
      `Consultation request #${stored!.id} from Meena Pillai`,
      `We will call you back (request #${stored!.id})`,
    ]);

    // The same person, as the form sends it again: the e-mail's case and the number's spacing may differ.
    const again = await book({ ...body, email: 'Twice@Example.test', contact: '+91 98111 00001'.slice(4) });
    expect(again.status).toBe(200);
    const message = repeatBookingMessage(stored!.created_at, '9811100001');
    expect(again.body).toEqual({ status: 200, message, data: { id: stored!.id } });
    expect(message).toMatch(/^We already have your request from \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m; we'll call you soon on /);
    expect(await bookingsOf('twice@example.test')).toHaveLength(1);
    expect(await mailsAbout(stored!.id)).toHaveLength(2);
  });

  it('stores one booking from a double tap (concurrent identical requests)', async () => {
    const body = { ...sampleBooking, email: 'double-tap@example.test', contact: '9811100002' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => book(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await bookingsOf('double-tap@example.test')).toHaveLength(1);
  });

  it('says nothing about a booking to someone who gives only its e-mail or only its contact: that is a new booking', async () => {
    await book({ ...sampleBooking, email: 'owner@example.test', contact: '9811100003' });
    const sameEmail = await book({ ...sampleBooking, email: 'owner@example.test', contact: '9811100004' });
    const sameContact = await book({ ...sampleBooking, email: 'someone-else@example.test', contact: '9811100003' });
    for (const res of [sameEmail, sameContact])
      expect(res.body).toEqual({ status: 201, message: BOOKED, data: { id: expect.any(Number) } });
  });

  it('books again once the first request is closed or converted', async () => {
    const body = { ...sampleBooking, email: 'closed@example.test', contact: '9811100005' };
    const first = await book(body);
    await (await callerFor(server, admin.token)).admin.bookings.update({ id: first.body.data.id, status: 'closed' });
    const second = await book(body);
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });
});

describe('the console’s bookings list', () => {
  it('flags a booking with the same e-mail or contact as an earlier one within a day, and no other', async () => {
    const console_ = await callerFor(server, admin.token);
    const page = await console_.admin.bookings.list({ status: 'all', pageSize: 50 });
    const byEmail = (email: string) => page.items.filter((b) => b.email === email);
    const owner = byEmail('owner@example.test').at(-1);
    expect(owner?.possibleDuplicateOf).toBeNull();
    // Same e-mail, another contact; and another e-mail with the owner's contact.
    const later = page.items.filter((b) => b.email === 'owner@example.test' || b.email === 'someone-else@example.test');
    expect(later.filter((b) => b.possibleDuplicateOf === owner!.id)).toHaveLength(2);
    const closedTwice = byEmail('closed@example.test');
    expect(closedTwice.map((b) => b.possibleDuplicateOf)).toEqual([closedTwice[1]!.id, null]);
    expect(byEmail('twice@example.test').map((b) => b.possibleDuplicateOf)).toEqual([null]);
    expect((await console_.admin.bookings.get({ id: closedTwice[0]!.id })).possibleDuplicateOf).toBe(closedTwice[1]!.id);
  });
});
