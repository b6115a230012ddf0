import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([server.user(), server.user(), server.user({ role: 'admin' })]);
});
afterAll(() => server?.stop());

const add = (token: string | undefined, body: unknown) =>
  server.request('POST', '/api/updated-weights/add-updated-weight', { token, body });

describe('POST /api/updated-weights/add-updated-weight', () => {
  it('records a weight with 201 and the spec message', async () => {
    const res = await add(alice.token, { weight: 71.5, date: '2026-11-01', cId: alice.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 201,
      message: 'Weight updated successfully!',
      data: { weight: 71.5, date: '2026-11-01', cId: alice.id },
    });
  });

  it('accepts numeric strings from forms and replaces the same day', async () => {
    await add(alice.token, { weight: '70', date: '2026-11-08' });
    const again = await add(alice.token, { weight: '69.4', date: '2026-11-08' });
    expect(again.status).toBe(201);
    const list = await server.request('GET', `/api/updated-weights/get-updated-weights?id=${alice.id}`, { token: alice.token });
    expect(list.body.data.filter((w: { date: string }) => w.date === '2026-11-08')).toEqual([expect.objectContaining({ weight: 69.4 })]);
  });

  it.each([
    [{ date: '2026-11-01' }, 'Weight is required', 'weight'],
    [{ weight: '', date: '2026-11-01' }, 'Weight is required', 'weight'],
    [{ weight: 'heavy', date: '2026-11-01' }, 'Weight must be a number', 'weight'],
    [{ weight: 0, date: '2026-11-01' }, 'Weight must be between 1 and 500 kg', 'weight'],
    [{ weight: 70 }, 'Date is required', 'date'],
    [{ weight: 70, date: '01/11/2026' }, 'Use a real date in the form YYYY-MM-DD', 'date'],
    [{ weight: 70, date: '2026-02-30' }, 'Use a real date in the form YYYY-MM-DD', 'date'],
    [{ weight: 70, date: '2999-01-01' }, 'The date cannot be in the future', 'date'],
  ])('refuses %j with 400 "%s"', async (body, message, field) => {
    const res = await add(alice.token, body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data.fieldErrors[field]).toContain(message);
  });

  it('refuses without a token (401) and for another client (403)', async () => {
    expect((await add(undefined, { weight: 70, date: '2026-11-01' })).status).toBe(401);
    const other = await add(alice.token, { weight: 70, date: '2026-11-01', cId: bob.id });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only access your own data.');
  });

  it('lets an admin record for a named client, and asks for the client otherwise', async () => {
    const ok = await add(admin.token, { weight: 80, date: '2026-10-01', cId: bob.id });
    expect(ok.status).toBe(201);
    const missing = await add(admin.token, { weight: 80, date: '2026-10-01' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('cId is required');
  });

  it('rejects a body that is not JSON', async () => {
    const res = await server.request('POST', '/api/updated-weights/add-updated-weight', {
      token: alice.token,
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body must be valid JSON.');
  });
});

describe('GET /api/updated-weights/get-updated-weights', () => {
  it('lists the caller’s history newest first', async () => {
    const res = await server.request('GET', `/api/updated-weights/get-updated-weights?id=${alice.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    const dates = res.body.data.map((w: { date: string }) => w.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(res.body.data[0]).toEqual({ id: expect.any(Number), weight: expect.any(Number), date: expect.any(String) });
  });

  it('refuses another client’s id with 403 and no token with 401', async () => {
    expect((await server.request('GET', `/api/updated-weights/get-updated-weights?id=${bob.id}`, { token: alice.token })).status).toBe(403);
    expect((await server.request('GET', `/api/updated-weights/get-updated-weights?id=${alice.id}`)).status).toBe(401);
  });
});

describe('DELETE /api/updated-weights/delete-updated-weight/:id', () => {
  it('removes the caller’s entry; another client’s entry is 404', async () => {
    const created = await add(bob.token, { weight: 90, date: '2026-09-01' });
    const bobsId = created.body.data.id;
    const foreign = await server.request('DELETE', `/api/updated-weights/delete-updated-weight/${bobsId}`, { token: alice.token });
    expect(foreign.status).toBe(404);
    const own = await server.request('DELETE', `/api/updated-weights/delete-updated-weight/${bobsId}`, { token: bob.token });
    expect(own.status).toBe(200);
    expect(own.body.message).toBe('Weight deleted successfully!');
    const again = await server.request('DELETE', `/api/updated-weights/delete-updated-weight/${bobsId}`, { token: bob.token });
    expect(again.status).toBe(404);
  });

  it('says which part of the path is wrong', async () => {
    const res = await server.request('DELETE', '/api/updated-weights/delete-updated-weight/abc', { token: bob.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('id must be a number');
  });
});
