import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, failure } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * Check-ins a phone may send twice, or a script may send in a flood: each one
 * answers with its own stored row, a repeat of a clientRequestId returns the
 * first, and new check-ins per client are limited (RATE_LIMIT_CHECK_INS).
 */
const LIMIT = 12;
let server: TestServer;
let admin: TestUser;
let many: TestUser;
let repeats: TestUser;
let flood: TestUser;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_CHECK_INS: `${LIMIT}/1h` });
  [admin, many, repeats, flood] = await Promise.all([
    server.user({ role: 'admin' }),
    server.user({ firstName: 'Mona' }),
    server.user({ firstName: 'Ravi' }),
    server.user({ firstName: 'Fiona' }),
  ]);
});
afterAll(() => server?.stop());

const post = (token: string, body: Record<string, unknown>) => server.request('POST', '/api/check-ins', { token, body });
const rowsOf = (clientId: number) =>
  server.deps.db.selectFrom('check_ins').select(['id', 'weight_kg', 'client_request_id']).where('client_id', '=', clientId).execute();

describe('concurrent check-ins', () => {
  it('answers each of 12 concurrent check-ins 201 with the row it stored', async () => {
    const weights = Array.from({ length: LIMIT }, (_, i) => 70 + i / 10);
    const answers = await Promise.all(weights.map((weight) => post(many.token, { weight, adherence: 3, clientRequestId: randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual(weights.map(() => 201));
    expect(answers.map((a) => a.body.data.weight)).toEqual(weights);
    const stored = await rowsOf(many.id);
    expect(stored).toHaveLength(LIMIT);
    for (const a of answers) {
      expect(stored.find((r) => r.id === a.body.data.id)?.weight_kg).toBe(a.body.data.weight);
      expect(a.body.data.repeated).toBe(false);
    }
  });
});

describe('clientRequestId', () => {
  it('stores 20 identical concurrent sends once: one 201, the rest 200 with the same check-in', async () => {
    const body = { weight: 81.5, adherence: 4, notes: 'Sent from a train', clientRequestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(repeats.token, body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.find((a) => a.status === 200)?.body).toMatchObject({
      message: 'This check-in was sent already.',
      data: { weight: 81.5, notes: 'Sent from a train', repeated: true },
    });
    expect(await rowsOf(repeats.id)).toEqual([expect.objectContaining({ client_request_id: body.clientRequestId })]);
  });

  it('returns the first check-in over tRPC, with its reply, when the key is sent again', async () => {
    const key = randomUUID();
    const caller = await callerFor(server, repeats.token);
    const first = await caller.checkIn.create({ weight: 80, adherence: 5, clientRequestId: key });
    expect(first.repeated).toBe(false);
    await (await callerFor(server, admin.token)).admin.followUps.reply({ checkInId: first.id, reply: 'Well done' });
    const again = await caller.checkIn.create({ weight: 80, adherence: 5, clientRequestId: key.toUpperCase() });
    expect(again).toMatchObject({ id: first.id, repeated: true, reply: 'Well done' });
    expect(await rowsOf(repeats.id)).toHaveLength(2);
  });

  it('refuses the key sent again with another weight or note (422 naming them) and stores nothing; the same body answers the first', async () => {
    const body = { weight: 79.4, adherence: 4, notes: 'Walked daily', clientRequestId: randomUUID() };
    const first = await post(repeats.token, body);
    expect(first.status).toBe(201);
    const changed = await post(repeats.token, { ...body, weight: 79.9, notes: 'Walked most days' });
    expect(changed).toMatchObject({
      status: 422,
      body: {
        status: 422,
        message: 'This clientRequestId was already used with different details (weight, notes). Send it with a new key.',
        data: { fieldErrors: { weight: [expect.any(String)], notes: [expect.any(String)] } },
      },
    });
    const same = await post(repeats.token, body);
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ id: first.body.data.id, weight: 79.4, notes: 'Walked daily', repeated: true });
    expect((await rowsOf(repeats.id)).filter((r) => r.client_request_id === body.clientRequestId)).toEqual([
      expect.objectContaining({ weight_kg: 79.4 }),
    ]);
  });

  it('keeps keys per client: another client’s key is not theirs to find', async () => {
    const key = randomUUID();
    expect((await post(repeats.token, { weight: 80, adherence: 3, clientRequestId: key })).status).toBe(201);
    const other = await post(many.token, { weight: 70, adherence: 3, clientRequestId: key });
    // Mona is at her limit from the first test: what matters is that Ravi's check-in is not returned to her.
    expect(other.body.data?.id).toBeUndefined();
    expect(other.status).toBe(429);
  });

  it('refuses a key that is not a UUID with 400 naming the field', async () => {
    const res = await post(repeats.token, { weight: 80, adherence: 3, clientRequestId: 'retry-1' });
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors.clientRequestId).toEqual([
      'clientRequestId must be a UUID made once per submission, such as crypto.randomUUID() gives',
    ]);
  });
});

describe('RATE_LIMIT_CHECK_INS', () => {
  it('refuses new check-ins past the limit with 429 and Retry-After, and still answers a repeat', async () => {
    const keys = Array.from({ length: LIMIT }, () => randomUUID());
    for (const clientRequestId of keys) expect((await post(flood.token, { weight: 60, adherence: 2, clientRequestId })).status).toBe(201);
    const refused = await post(flood.token, { weight: 60, adherence: 2, clientRequestId: randomUUID() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many new check-ins for this client\. Try again in \d+ minutes?\.$/);
    const noKey = await failure((await callerFor(server, flood.token)).checkIn.create({ weight: 60, adherence: 2 }));
    expect(noKey.code).toBe('TOO_MANY_REQUESTS');
    // A phone retrying a check-in that was stored is answered with it, not refused.
    const repeat = await post(flood.token, { weight: 60, adherence: 2, clientRequestId: keys[0] });
    expect(repeat.status).toBe(200);
    expect(await rowsOf(flood.id)).toHaveLength(LIMIT);
  });

  it('counts check-ins a dietitian sends for the client too', async () => {
    const refused = await post(admin.token, { clientId: flood.id, weight: 60, adherence: 2 });
    expect(refused.status).toBe(429);
  });
});
