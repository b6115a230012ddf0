import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '../../server/brand.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let client: TestUser;

const RECEIVED = 'Thanks for reaching out! Our team will reply within one working day.';
const PATH = '/api/support/create-support-request';

beforeAll(async () => {
  server = await startTestServer();
  client = await server.user({ firstName: 'Kavya', lastName: 'Menon' });
});
afterAll(() => server?.stop());

const send = (body: unknown, token?: string) => server.request('POST', PATH, { token, body });

const latestRequest = () =>
  server.deps.db.selectFrom('support_requests').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

const latestMail = () => server.deps.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

describe('POST /api/support/create-support-request', () => {
  it('takes a visitor’s request with 200, stores it and mails the team', async () => {
    const res = await send({ name: '  Ravi Kumar ', email: 'ravi@example.test', message: 'Do you have plans for teenagers?' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: RECEIVED });

    const saved = await latestRequest();
    expect(saved).toMatchObject({ user_id: null, name: 'Ravi Kumar', email: 'ravi@example.test', status: 'open' });
    expect(saved.message).toBe('Do you have plans for teenagers?');

    await server.deps.mailer.drain(); // delivery runs after the answer (queue)
    const mail = await latestMail();
    expect(mail.to_address).toBe(BRAND.supportEmail);
    expect(mail.subject).toBe(`Support request #${saved.id} from Ravi Kumar`);
    expect(mail.body_text).toContain('Email: ravi@example.test');
    expect(mail.body_text).toContain('Do you have plans for teenagers?');
    expect(mail.status).toBe('logged');
  });

  it('takes a signed-in client’s name and email from the account, whatever the body says', async () => {
    const res = await send({ name: 'Someone Else', email: 'else@example.test', message: 'My plan PDF will not open.' }, client.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(RECEIVED);
    const saved = await latestRequest();
    expect(saved).toMatchObject({ user_id: client.id, name: 'Kavya Menon', email: client.email });
  });

  it('asks a signed-in client for the message only', async () => {
    const ok = await send({ message: 'Can I change my call slot?' }, client.token);
    expect(ok.status).toBe(200);
    const missing = await send({}, client.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Message is required');
    expect(Object.keys(missing.body.data.fieldErrors)).toEqual(['message']);
  });

  it('tells a visitor every missing field at once, name first', async () => {
    const res = await send({});
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toBe('Name is required');
    expect(res.body.data.fieldErrors).toEqual({
      name: ['Name is required'],
      email: ['Email is required'],
      message: ['Message is required'],
    });
  });

  it.each([
    [{ email: 'a@example.test', message: 'Hi' }, 'Name is required', 'name'],
    [{ name: '   ', email: 'a@example.test', message: 'Hi' }, 'Name is required', 'name'],
    [{ name: 'Asha', message: 'Hi' }, 'Email is required', 'email'],
    [{ name: 'Asha', email: '', message: 'Hi' }, 'Email is required', 'email'],
    [{ name: 'Asha', email: 'a@example.test' }, 'Message is required', 'message'],
    [{ name: 'Asha', email: 'a@example.test', message: ' \n ' }, 'Message is required', 'message'],
    [{ name: 'A'.repeat(101), email: 'a@example.test', message: 'Hi' }, 'Name must be at most 100 characters', 'name'],
    [{ name: 'Asha', email: `${'a'.repeat(250)}@x.in`, message: 'Hi' }, 'Email must be at most 254 characters', 'email'],
    [{ name: 'Asha', email: 'a@example.test', message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters', 'message'],
  ])('refuses a visitor’s %j with 400 "%s"', async (body, message, field) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });

  it.each(['not-an-email', 'call me on 98765 43210', 'asha@', '@example.com', 'asha@example'])(
    'refuses an address a reply cannot reach (%j) with 400, before anything is stored or mailed',
    async (email) => {
      const [request, mail] = [await latestRequest(), await latestMail()];
      const res = await send({ name: 'Asha', email, message: 'Please write back.' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: 400,
        message: 'Enter a valid email address, like name@example.com',
        data: { fieldErrors: { email: ['Enter a valid email address, like name@example.com'] } },
      });
      expect((await latestRequest()).id).toBe(request.id);
      expect((await latestMail()).id).toBe(mail.id);
    },
  );

  it('says only what is missing when the address is blank, not that it is malformed', async () => {
    const res = await send({ name: 'Asha', email: '   ', message: 'Hi' });
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors.email).toEqual(['Email is required']);
  });

  it('refuses a name with line breaks (a header injection attempt) before any mail is written', async () => {
    const before = await latestMail();
    const res = await send({ name: 'Eve\r\nBcc: victim@example.test', email: 'eve@example.test', message: 'Hello' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Name cannot contain control, invisible or direction-changing characters');
    expect((await latestMail()).id).toBe(before.id);
  });
});
