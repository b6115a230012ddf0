import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor, failure } from '../helpers/callers.js';

let server: TestServer;
let admin: TestUser;
let console_: Awaited<ReturnType<typeof callerFor>>;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  console_ = await callerFor(server, admin.token);
});
afterAll(() => server?.stop());

const newest = (email: string) =>
  server.deps.db.selectFrom('outbox').selectAll().where('to_address', '=', email).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
const auditOf = (entity: string, entityId: number) =>
  server.deps.db.selectFrom('audit_log').selectAll().where('entity', '=', entity).where('entity_id', '=', entityId).orderBy('id').execute();

describe('admin.clients.create', () => {
  it('opens an account without a password and mails a set-password link that works once', async () => {
    const created = await console_.admin.clients.create({
      firstName: 'Asha',
      lastName: 'Rao',
      email: ' Asha.Rao@Example.test ',
      phone: '+91 98765-43210',
      heightM: '1.62',
      weightKg: '68.5',
      conditionNotes: 'PCOD, vegetarian',
    });
    expect(created.message).toBe('Asha Rao was added and a link to set a password was mailed to asha.rao@example.test.');

    const client = await console_.admin.clients.get({ id: created.id });
    expect(client).toMatchObject({
      email: 'asha.rao@example.test',
      fullName: 'Asha Rao',
      phone: '919876543210',
      heightM: 1.62,
      weightKg: 68.5,
      conditionNotes: 'PCOD, vegetarian',
      isActive: true,
      hasPassword: false,
      rating: null,
    });

    const mail = await newest('asha.rao@example.test');
    expect(mail.id).toBe(created.outboxId);
    expect(mail.subject).toBe('Welcome to Poshan: set your password');
    expect(mail.body_text).toContain('Meera Iyer has opened your Poshan account');
    // The outbox hides the link (any dietitian reads it); the client's own mailbox gets it.
    expect(mail.body_text).not.toContain('token=');
    const token = server.lastLinkToken('asha.rao@example.test') ?? '';
    expect(token.length).toBeGreaterThan(30);

    const visitor = await callerFor(server);
    await visitor.auth.resetPassword({ token, password: 'first-password-1' });
    const signedIn = await visitor.auth.signIn({ email: 'asha.rao@example.test', password: 'first-password-1', role: 2 });
    expect(signedIn.data).toMatchObject({ id: created.id, fullName: 'Asha Rao', role: 2 });
    expect((await console_.admin.clients.get({ id: created.id })).hasPassword).toBe(true);
    expect((await failure(visitor.auth.resetPassword({ token, password: 'second-password-2' }))).code).toBe('BAD_REQUEST');

    const trail = await auditOf('client', created.id);
    expect(trail).toEqual([
      expect.objectContaining({
        action: 'client.created',
        actor_id: admin.id,
        actor_email: admin.email,
        summary: expect.stringContaining('Asha Rao'),
      }),
    ]);
    expect(JSON.stringify(trail[0]!.details)).not.toContain(token);
  });

  it('refuses a second account with the same email, whatever its case, and writes nothing', async () => {
    const before = await server.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const err = await failure(console_.admin.clients.create({ firstName: 'Asha', email: 'ASHA.RAO@example.test' }));
    expect(err).toMatchObject({ code: 'CONFLICT', message: 'An account with the email asha.rao@example.test already exists.' });
    const after = await server.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it.each([
    [{ firstName: '', email: 'a@b.test' }, 'firstName', 'First name is required'],
    [{ firstName: 'A', email: '' }, 'email', 'Email is required'],
    [{ firstName: 'A', email: 'not-an-email' }, 'email', 'Enter a valid email address, e.g. asha@example.com'],
    [{ firstName: 'A', email: 'a@b.test', phone: '12345' }, 'phone', 'Phone must have 10 to 13 digits'],
    [{ firstName: 'A', email: 'a@b.test', heightM: '165' }, 'heightM', 'Height must be between 0.5 and 2.6 m'],
    [{ firstName: 'A', email: 'a@b.test', weightKg: 'heavy' }, 'weightKg', 'Weight must be a number in kg, e.g. 68'],
  ])('validates %j: %s → "%s"', async (input, field, message) => {
    const res = await server.request('POST', '/trpc/admin.clients.create', { token: admin.token, body: { json: input } });
    expect(res.status).toBe(400);
    expect(res.body.error.json.message).toBe(message);
    expect(res.body.error.json.data.fieldErrors[field]).toContain(message);
  });
});

describe('admin.clients.list', () => {
  beforeAll(async () => {
    for (const [firstName, lastName, email, phone] of [
      ['Ravi', 'Kumar', 'ravi.k@example.test', '9811111111'],
      ['Ravina', 'Shah', 'rshah@example.test', '9822222222'],
      ['Kumari', 'Devi', 'kd@example.test', ''],
      ['Percent', 'Sign', 'p50@example.test', ''],
    ]) {
      await console_.admin.clients.create({ firstName: firstName!, lastName, email: email!, phone });
    }
  });

  const names = async (q: string, status: 'all' | 'active' | 'inactive' = 'all') =>
    (await console_.admin.clients.list({ q, status, pageSize: 100 })).items.map((c) => c.fullName).sort();

  it('finds clients by the start of the email, the full name, the last name or the phone, in any case', async () => {
    expect(await names('ravi')).toEqual(['Ravi Kumar', 'Ravina Shah']);
    expect(await names('RAVI K')).toEqual(['Ravi Kumar']);
    expect(await names('kumar')).toEqual(['Kumari Devi', 'Ravi Kumar']);
    expect(await names('rshah@')).toEqual(['Ravina Shah']);
    expect(await names('98222')).toEqual(['Ravina Shah']);
    expect(await names('umar')).toEqual([]);
  });

  it('treats % and _ as plain text', async () => {
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
  });

  it('pages on the server, newest first, with the total', async () => {
    const first = await console_.admin.clients.list({ pageSize: 10 });
    expect(first.total).toBe(5);
    expect(first.items.map((c) => c.fullName)).toEqual(['Percent Sign', 'Kumari Devi', 'Ravina Shah', 'Ravi Kumar', 'Asha Rao']);
    const page = await console_.admin.clients.list({ page: 1, pageSize: 10 });
    expect(page).toMatchObject({ items: [], total: 5, page: 1, pageSize: 10 });
    expect((await failure(console_.admin.clients.list({ pageSize: 7 }))).code).toBe('BAD_REQUEST');
  });
});

describe('editing and deactivating a client', () => {
  let client: TestUser;
  beforeAll(async () => {
    client = await server.user({ firstName: 'Neha', lastName: 'Gupta', heightM: 1.6, weightKg: 60 });
  });

  it('saves changed fields and records them in the audit trail', async () => {
    const res = await console_.admin.clients.update({
      id: client.id,
      firstName: 'Neha',
      lastName: 'Gupta-Singh',
      email: client.email,
      phone: '9876543210',
      heightM: 1.6,
      weightKg: 61,
      conditionNotes: '',
    });
    expect(res.message).toBe('The client’s details were saved.');
    expect(await console_.admin.clients.get({ id: client.id })).toMatchObject({
      lastName: 'Gupta-Singh',
      weightKg: 61,
      phone: '9876543210',
    });
    const [entry] = await auditOf('client', client.id);
    expect(entry).toMatchObject({ action: 'client.updated' });
    expect(entry!.details).toEqual({
      last_name: { from: 'Gupta', to: 'Gupta-Singh' },
      phone: { from: null, to: '9876543210' },
      weight_kg: { from: 60, to: 61 },
    });
    const again = await console_.admin.clients.update({
      id: client.id,
      firstName: 'Neha',
      lastName: 'Gupta-Singh',
      email: client.email,
      phone: '9876543210',
      heightM: 1.6,
      weightKg: 61,
    });
    expect(again.message).toBe('Nothing changed.');
  });

  it('refuses an email another account uses', async () => {
    const err = await failure(console_.admin.clients.update({ id: client.id, firstName: 'Neha', email: 'ravi.k@example.test' }));
    expect(err).toMatchObject({ code: 'CONFLICT', message: 'Another account already uses ravi.k@example.test.' });
  });

  it('deactivating ends the sessions and refuses sign-in; reactivating lets the client back', async () => {
    const asClient = await callerFor(server, client.token);
    expect((await asClient.auth.checkAuthorization()).data.id).toBe(client.id);

    const res = await console_.admin.clients.setActive({ id: client.id, active: false });
    expect(res.message).toBe('Neha Gupta-Singh was deactivated and signed out everywhere.');
    expect((await failure((await callerFor(server, client.token)).auth.checkAuthorization())).code).toBe('UNAUTHORIZED');
    const open = await server.deps.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', client.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
    const refused = await failure((await callerFor(server)).auth.signIn({ email: client.email, password: client.password, role: 2 }));
    expect(refused.message).toBe('This account is no longer active. Please contact us to restore it.');
    expect((await console_.admin.clients.list({ status: 'inactive' })).items.map((c) => c.id)).toEqual([client.id]);

    await console_.admin.clients.setActive({ id: client.id, active: true });
    const back = await (await callerFor(server)).auth.signIn({ email: client.email, password: client.password, role: 2 });
    expect(back.data.id).toBe(client.id);
    expect((await auditOf('client', client.id)).map((a) => a.action)).toEqual([
      'client.updated',
      'client.deactivated',
      'client.reactivated',
    ]);
  });

  it('resends a set-password link', async () => {
    const before = server.lastLinkToken(client.email);
    const res = await console_.admin.clients.resendInvite({ id: client.id });
    expect(res.message).toBe(`A new set-password link was mailed to ${client.email}.`);
    expect(server.lastLinkToken(client.email)).toBeTruthy();
    expect(server.lastLinkToken(client.email)).not.toBe(before);
  });

  it('shows the weight history oldest first for the chart', async () => {
    const session = await issueSession(server.deps.db, client.id);
    const asClient = await callerFor(server, session.token);
    await asClient.weight.add({ weight: 62, date: '2026-10-01' });
    await asClient.weight.add({ weight: 61.2, date: '2026-10-15' });
    expect((await console_.admin.clients.weights({ id: client.id })).map((w) => [w.date, w.weight])).toEqual([
      ['2026-10-01', 62],
      ['2026-10-15', 61.2],
    ]);
  });

  it('answers 404 for an id that is not a client', async () => {
    expect(await failure(console_.admin.clients.get({ id: admin.id }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'That client does not exist.',
    });
    expect((await failure(console_.admin.clients.setActive({ id: 999_999, active: false }))).code).toBe('NOT_FOUND');
  });
});
