import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { AUTH_TEST_ENV, freshIp, fromIp } from '../helpers/sign-in.js';

/**
 * Names and other single-line fields refuse every character a reader cannot
 * see or that turns the text around it, through the real API; multi-line free
 * text keeps emoji sequences joined with U+200D, and Indic names keep their
 * joiners.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(AUTH_TEST_ENV);
});
afterAll(() => server?.stop());

const NAME_REFUSED = 'First name cannot contain control, invisible or direction-changing characters';

const REFUSED: Array<[string, string]> = [
  ['C0 control (BEL)', 'As\u0007ha'],
  ['DEL', 'As\u007Fha'],
  ['C1 control U+0080', 'As\u0080ha'],
  ['next line U+0085', 'As\u0085ha'],
  ['C1 control U+009F', 'As\u009Fha'],
  ['line separator U+2028', 'As\u2028ha'],
  ['paragraph separator U+2029', 'As\u2029ha'],
  ['left-to-right embedding U+202A', 'As\u202Aha'],
  ['right-to-left override U+202E', 'As\u202Eah'],
  ['left-to-right isolate U+2066', 'As\u2066ha'],
  ['pop directional isolate U+2069', 'As\u2069ha'],
  ['left-to-right mark U+200E', 'As\u200Eha'],
  ['right-to-left mark U+200F', 'As\u200Fha'],
  ['Arabic letter mark U+061C', 'As\u061Cha'],
  ['zero-width space U+200B', 'As\u200Bha'],
  ['zero-width non-joiner between Latin letters U+200C', 'As\u200Cha'],
  ['zero-width joiner between Latin letters U+200D', 'As\u200Dha'],
  ['zero-width joiner inside an emoji sequence, in a name', 'Asha 👨\u200D👩\u200D👧'],
  ['word joiner U+2060', 'As\u2060ha'],
  ['byte order mark U+FEFF', 'As\uFEFFha'],
];

describe('a name through the REST API', () => {
  it.each(REFUSED)('refuses a %s with a 400 naming the field, and keeps the saved name', async (_label, firstName) => {
    const user = await server.user({ firstName: 'Asha' });
    const res = await server.request('PUT', '/api/profile', { token: user.token, body: { firstName } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(NAME_REFUSED);
    expect(res.body.data.fieldErrors.firstName).toEqual([NAME_REFUSED]);
    expect((await server.request('GET', '/api/profile', { token: user.token })).body.data.firstName).toBe('Asha');
  });

  it('accepts names in Indic scripts with their joiners (a Devanagari half form, a Malayalam chillu), and emoji', async () => {
    const user = await server.user();
    for (const firstName of ['क्\u200Dष', 'अर्\u200Cजुन', 'അവന്\u200D', 'Asha 🌸']) {
      const res = await server.request('PUT', '/api/profile', { token: user.token, body: { firstName } });
      expect(res.status, firstName).toBe(200);
      expect(res.body.data.firstName).toBe(firstName);
    }
  });
});

describe('multi-line free text', () => {
  const send = (message: string) =>
    server.request('POST', '/api/support/create-support-request', {
      body: { name: 'Asha', email: 'asha@example.test', message },
      headers: fromIp(freshIp()),
    });

  it('keeps emoji joined with U+200D, line breaks and tabs', async () => {
    const res = await send('Thank you from all of us 👨\u200D👩\u200D👧 🏳️\u200D🌈\nSee you\tsoon');
    expect(res.status).toBe(200);
  });

  it.each([
    ['a stray zero-width joiner', 'Hello\u200D there'],
    ['a right-to-left override', 'Refund \u202Eenod'],
    ['a zero-width space', 'Hel\u200Blo'],
    ['next line U+0085', 'Hello\u0085there'],
    ['a line separator', 'Hello\u2028there'],
  ])('refuses %s', async (_label, message) => {
    const res = await send(message);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Message can only contain text, line breaks and tabs (no invisible or direction-changing characters)');
  });
});
