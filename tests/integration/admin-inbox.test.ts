import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure } from '../helpers/callers.js';

let server: TestServer;
let admin: TestUser;
let console_: Awaited<ReturnType<typeof callerFor>>;
let visitor: Awaited<ReturnType<typeof callerFor>>;
const INDIA = 356;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  console_ = await callerFor(server, admin.token);
  visitor = await callerFor(server);
});
afterAll(() => server?.stop());

const actions = (entity: string, id: number) =>
  server.deps.db.selectFrom('audit_log').select('action').where('entity', '=', entity).where('entity_id', '=', id).orderBy('id').execute();

const book = (name: string, email: string, height = '5.6') =>
  visitor.consultation.book({
    name,
    email,
    gender: 2,
    age: 31,
    height,
    weight: 72,
    state: 'Kerala',
    contact: '9876543210',
    country: INDIA,
    isMedicalCondition: true,
  });

describe('bookings', () => {
  let bookingId: number;

  it('lists every field of each consultation request, newest first, by status', async () => {
    await book('Old Request', 'old@example.test');
    bookingId = (await book('Priya Nair', 'Priya.Nair@example.test')).data.id;
    const page = await console_.admin.bookings.list({ status: 'new' });
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({
      id: bookingId,
      name: 'Priya Nair',
      email: 'priya.nair@example.test', // e-mail fields keep addresses lower-cased
      gender: 2,
      genderLabel: 'Female',
      age: 31,
      height: '5.6',
      weight: 72,
      state: 'Kerala',
      contact: '9876543210',
      country: { id: INDIA, name: 'India' },
      isMedicalCondition: true,
      status: 'new',
      notes: null,
      clientId: null,
    });
    expect((await console_.admin.bookings.list({ status: 'contacted' })).total).toBe(0);
  });

  it('moves new → contacted with notes, and refuses skipping or going back', async () => {
    const res = await console_.admin.bookings.update({ id: bookingId, status: 'contacted', notes: 'Called on Monday, wants PCOD plan' });
    expect(res.message).toBe('The booking was updated.');
    expect((await console_.admin.bookings.get({ id: bookingId })).notes).toBe('Called on Monday, wants PCOD plan');
    expect((await failure(console_.admin.bookings.update({ id: bookingId, status: 'new' }))).message).toBe(
      'A contacted booking cannot be marked new.',
    );
    expect((await failure(console_.admin.bookings.update({ id: bookingId, status: 'converted' }))).message).toBe(
      'Convert a booking by creating the client from it (the Convert button).',
    );
    expect((await actions('booking', bookingId)).map((a) => a.action)).toEqual(['booking.status_changed']);
  });

  it('pre-fills a new client from the booking, and converting links the two', async () => {
    const detail = await console_.admin.bookings.get({ id: bookingId });
    expect(detail.prefill).toMatchObject({
      firstName: 'Priya',
      lastName: 'Nair',
      email: 'priya.nair@example.test',
      phone: '9876543210',
      heightM: 1.68,
      weightKg: 72,
    });
    expect(detail.prefill.conditionNotes).toContain('Has a medical condition');

    const { conditionNotes, ...rest } = detail.prefill;
    const created = await console_.admin.clients.create({ ...rest, conditionNotes, bookingId });
    const after = await console_.admin.bookings.get({ id: bookingId });
    expect(after).toMatchObject({ status: 'converted', clientId: created.id });
    expect((await console_.admin.clients.get({ id: created.id })).bookingId).toBe(bookingId);
    expect((await actions('booking', bookingId)).map((a) => a.action)).toEqual(['booking.status_changed', 'booking.converted']);

    const twice = await failure(console_.admin.clients.create({ ...rest, email: 'other@example.test', bookingId }));
    expect(twice.message).toBe('That booking does not exist, or was already converted or closed.');
    // The failed conversion rolled back: no second account.
    expect((await console_.admin.clients.list({ q: 'other@' })).total).toBe(0);
  });

  it('closes and reopens a booking', async () => {
    const old = (await console_.admin.bookings.list({ status: 'new' })).items[0]!;
    await console_.admin.bookings.update({ id: old.id, status: 'closed' });
    await console_.admin.bookings.update({ id: old.id, status: 'contacted' });
    expect((await console_.admin.bookings.get({ id: old.id })).status).toBe('contacted');
  });
});

describe('support inbox', () => {
  it('lists open requests oldest first; a reply is mailed and files the request as answered', async () => {
    await visitor.support.create({ name: 'Rahul', email: 'rahul@example.test', message: 'Do you do video calls?' });
    await visitor.support.create({ name: 'Sana', email: 'sana@example.test', message: 'Is there EMI?' });
    const open = await console_.admin.support.list({ status: 'open' });
    expect(open.items.map((r) => r.name)).toEqual(['Rahul', 'Sana']);
    const rahul = open.items[0]!;

    const res = await console_.admin.support.reply({ id: rahul.id, reply: 'Yes, weekly on the 6 and 12 month plans.' });
    expect(res.message).toBe('Your reply was mailed to rahul@example.test.');
    const mail = await server.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'rahul@example.test')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Re: your message to Poshan');
    expect(mail.body_text).toContain('Yes, weekly on the 6 and 12 month plans.');
    expect(mail.body_text).toContain('> Do you do video calls?');

    const answered = await console_.admin.support.list({ status: 'answered' });
    expect(answered.items).toEqual([
      expect.objectContaining({
        id: rahul.id,
        status: 'answered',
        reply: 'Yes, weekly on the 6 and 12 month plans.',
        answeredBy: 'Meera Iyer',
      }),
    ]);
    expect((await console_.admin.support.list({ status: 'open' })).items.map((r) => r.name)).toEqual(['Sana']);
  });

  it('marks a request answered without a mail, and reopens it', async () => {
    const sana = (await console_.admin.support.list({ status: 'open' })).items[0]!;
    await console_.admin.support.setStatus({ id: sana.id, status: 'answered' });
    expect((await console_.admin.support.list({ status: 'open' })).total).toBe(0);
    await console_.admin.support.setStatus({ id: sana.id, status: 'open' });
    expect((await console_.admin.support.list({ status: 'open' })).total).toBe(1);
    expect((await actions('support_request', sana.id)).map((a) => a.action)).toEqual(['support.marked_answered', 'support.reopened']);
  });

  it('needs words in a reply', async () => {
    const sana = (await console_.admin.support.list({ status: 'open' })).items[0]!;
    expect((await failure(console_.admin.support.reply({ id: sana.id, reply: '   ' }))).message).toBe('Reply is required');
  });
});

describe('reviews and home page testimonials', () => {
  let reviewers: TestUser[];

  beforeAll(async () => {
    reviewers = await Promise.all(['Anita', 'Bharat', 'Chitra', 'Dev'].map((firstName) => server.user({ firstName, lastName: 'Surname' })));
    const comments = ['Lost 6 kg in 3 months!', 'Great follow-ups', 'Finally my PCOD is under control', ''];
    for (const [i, r] of reviewers.entries()) {
      await (await callerFor(server, r.token)).rating.add({ reviewStar: 4 + (i % 2) / 2, reviewComment: comments[i] });
    }
  });

  const published = async () => {
    const res = await server.request('GET', '/trpc/testimonials.published');
    expect(res.status).toBe(200);
    return res.body.result.data.json.items as Array<{ clientName: string; clientReview: string; postedOn: string; postedMonth: string }>;
  };

  it('lists every rating with its client', async () => {
    const all = await console_.admin.reviews.list({});
    expect(all.total).toBe(4);
    expect(all.items[0]).toMatchObject({
      stars: 4.5,
      comment: '',
      isPublished: false,
      client: { firstName: 'Dev', fullName: 'Dev Surname' },
    });
  });

  it('feeds the home page only once three reviews are published, with first name and month', async () => {
    const [a, b, c, d] = (await console_.admin.reviews.list({})).items.reverse();
    await console_.admin.reviews.setPublished({ id: a!.id, published: true });
    await console_.admin.reviews.setPublished({ id: b!.id, published: true });
    expect(await published()).toEqual([]);

    const res = await console_.admin.reviews.setPublished({ id: c!.id, published: true });
    expect(res.message).toBe('The review by Chitra is now on the home page.');
    const items = await published();
    expect(items.map((t) => t.clientName).sort()).toEqual(['Anita', 'Bharat', 'Chitra']);
    const month = new Date().toISOString().slice(0, 7);
    expect(items[0]).toMatchObject({ postedMonth: month, postedOn: expect.stringMatching(/^[A-Z][a-z]+ \d{4}$/) });
    expect(JSON.stringify(items)).not.toContain('Surname');

    expect((await failure(console_.admin.reviews.setPublished({ id: d!.id, published: true }))).message).toBe(
      'Only reviews with a comment can be published: a testimonial needs words.',
    );
    await console_.admin.reviews.setPublished({ id: a!.id, published: false });
    expect(await published()).toEqual([]);
    expect((await console_.admin.reviews.list({ filter: 'published' })).total).toBe(2);
    expect((await actions('review', a!.id)).map((x) => x.action)).toEqual(['review.published', 'review.unpublished']);
  });
});
