import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '../../server/brand.js';
import { createContextInner } from '../../server/trpc/context.js';
import { createCaller } from '../../server/trpc/root.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sampleBooking } from '../helpers/booking.js';

let server: TestServer;

/** A request without a time is a callback request, and the answer says so (the confirmation screen's words). */
const BOOKED = 'We will call you back. Your request for a free consultation has reached our dietitians.';
const PATH = '/api/client/book-consultation';
const INDIA = 356;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const booking = sampleBooking;

const book = (body: unknown) => server.request('POST', PATH, { body });

describe('POST /api/client/book-consultation', () => {
  it('books with 201, the spec’s message and the new id; no sign-in needed', async () => {
    const res = await book(booking);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 201, message: BOOKED, data: { id: expect.any(Number) } });

    const saved = await server.deps.db.selectFrom('consultations').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({
      name: 'Meena Pillai',
      email: 'meena@example.test',
      gender: 2,
      age: 38,
      height: '5\'3"',
      weight: 74,
      state: 'Kerala',
      contact: '9876543210',
      country_id: INDIA,
      is_medical_condition: true,
      status: 'new',
    });
  });

  it('mails the team with the country’s name', async () => {
    const res = await book({ ...booking, name: 'Farah Khan', email: 'farah.team@example.test' });
    const mail = await server.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', BRAND.supportEmail)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Consultation request #${res.body.data.id} from Farah Khan`);
    expect(mail.body_text).toContain('Country: India');
    expect(mail.body_text).toContain('Medical condition: Yes');
    expect(mail.body_text).toContain('Gender: Female');
    expect(mail.body_text).toMatch(/Received: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m/);
  });

  it('tells the visitor, in plain text and HTML, what happens next', async () => {
    const res = await book({ ...booking, name: 'Farah Khan', email: 'farah@example.test', contact: '+91 98765-43210' });
    const mail = await server.deps.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'farah@example.test')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`We will call you back (request #${res.body.data.id})`);
    expect(mail.body_text).toContain('Hello Farah Khan,');
    expect(mail.body_text).toContain('WHAT HAPPENS NEXT');
    expect(mail.body_text).toContain('A dietitian calls you on +91 98765 43210 within one working day');
    expect(mail.body_html).toContain('<ol');
    expect(mail.body_html).toContain('A dietitian calls you on +91 98765 43210 within one working day');
  });

  it('takes the form’s text values: radio "0" means no condition', async () => {
    const res = await book({
      ...booking,
      email: 'form-values@example.test',
      gender: '1',
      age: '29',
      weight: '58.5',
      country: String(INDIA),
      isMedicalCondition: '0',
    });
    expect(res.status).toBe(201);
    const saved = await server.deps.db
      .selectFrom('consultations')
      .select(['gender', 'age', 'weight', 'is_medical_condition'])
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ gender: 1, age: 29, weight: 58.5, is_medical_condition: false });
  });

  it('lists every failing field, first one as the message', async () => {
    const res = await book({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Name is required');
    expect(res.body.data.fieldErrors).toEqual({
      name: ['Name is required'],
      email: ['Email is required'],
      gender: ['Gender is required'],
      age: ['Age is required'],
      height: ['Height is required'],
      weight: ['Weight is required'],
      state: ['State is required'],
      contact: ['Contact is required'],
      country: ['Country is required'],
      isMedicalCondition: ['Condition is required'],
    });
  });

  it.each([
    [{ name: '' }, 'Name is required', 'name'],
    [{ email: ' ' }, 'Email is required', 'email'],
    [{ age: undefined }, 'Age is required', 'age'],
    [{ age: 1000 }, 'Age cannot exceed 3 digits', 'age'],
    [{ age: '12.5' }, 'Age must be a whole number', 'age'],
    [{ age: 0 }, 'Age must be more than 0', 'age'],
    [{ gender: null }, 'Gender is required', 'gender'],
    [{ gender: 7 }, 'Choose Male, Female or Other', 'gender'],
    [{ height: '' }, 'Height is required', 'height'],
    [{ weight: '' }, 'Weight is required', 'weight'],
    [{ weight: 1000 }, 'Weight cannot exceed 3 digits', 'weight'],
    [{ weight: 0 }, 'Weight must be more than 0', 'weight'],
    [{ state: '' }, 'State is required', 'state'],
    [{ contact: '' }, 'Contact is required', 'contact'],
    [{ contact: '123456789' }, 'Contact must be between 10 and 13 digits', 'contact'],
    [{ contact: '12345678901234' }, 'Contact must be between 10 and 13 digits', 'contact'],
    [{ country: '' }, 'Country is required', 'country'],
    [{ country: 'India' }, 'Choose a country from the list', 'country'],
    [{ isMedicalCondition: undefined }, 'Condition is required', 'isMedicalCondition'],
    [{ isMedicalCondition: 'perhaps' }, 'Answer Yes or No', 'isMedicalCondition'],
    [{ height: 'x'.repeat(31) }, 'Height must be at most 30 characters', 'height'],
  ])('refuses %j with 400 "%s"', async (patch, message, field) => {
    const res = await book({ ...booking, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toEqual([message]);
  });

  it('refuses a country id that is not in the list', async () => {
    const before = await server.deps.db
      .selectFrom('consultations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await book({ ...booking, country: 999 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Choose a country from the list');
    expect(res.body.data.fieldErrors).toEqual({ country: ['Choose a country from the list'] });
    const after = await server.deps.db
      .selectFrom('consultations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('what the booking mails, and to whom', () => {
  const outboxCount = async () =>
    Number(
      (
        await server.deps.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a list of addresses in the e-mail field with 400, and mails no one', async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `target${i}@example.test`).join(', ');
    const before = await outboxCount();
    const res = await book({ ...booking, contact: '9876543299', name: 'Win a prize', email: nine });
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors.email).toEqual(['Enter a valid email address, like name@example.com']);
    expect(await outboxCount()).toBe(before);
    for (const bad of ['not-an-address', 'a@example.test;b@example.test', 'a@example.test b@example.test']) {
      expect((await book({ ...booking, contact: '9876543298', email: bad })).status).toBe(400);
    }
    expect(await outboxCount()).toBe(before);
  });

  it('keeps one address, trimmed and lower-cased', async () => {
    const res = await book({ ...booking, contact: '9876543297', email: '  Mixed.Case@Example.TEST ' });
    expect(res.status).toBe(201);
    const saved = await server.deps.db
      .selectFrom('consultations')
      .select('email')
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(saved.email).toBe('mixed.case@example.test');
  });

  it.each(['Visit https://prize.example', 'www.prize.example', 'claim at prize.example', 'me@prize.example', '<a href=x>Prize</a>'])(
    'refuses a name a mail client could make a link of: %j',
    async (name) => {
      const before = await outboxCount();
      const res = await book({ ...booking, contact: '9876543296', email: 'named@example.test', name });
      expect(res.status).toBe(400);
      expect(res.body.data.fieldErrors.name?.[0]).toMatch(/without web or email addresses/);
      expect(await outboxCount()).toBe(before);
    },
  );

  it('takes names with dots written as names are ("Dr. S. K. Rao")', async () => {
    const res = await book({ ...booking, contact: '9876543295', email: 'dotted@example.test', name: 'Dr. S. K. Rao' });
    expect(res.status).toBe(201);
  });
});

describe('consultation.book over tRPC', () => {
  it('answers with the same message and id', async () => {
    const caller = createCaller(createContextInner({ deps: server.deps }));
    const booked = await caller.consultation.book({ ...booking, contact: '+91 91234 56789' });
    expect(booked).toEqual({
      message: BOOKED,
      data: { id: expect.any(Number) },
      repeated: false,
      outcome: 'callback',
      time: null,
      phone: '+91 91234 56789',
    });
    const saved = await server.deps.db
      .selectFrom('consultations')
      .select('contact')
      .where('id', '=', booked.data.id)
      .executeTakeFirstOrThrow();
    expect(saved.contact).toBe('919123456789');
  });
});
