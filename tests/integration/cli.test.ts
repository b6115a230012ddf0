import { existsSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, describe, expect, it } from 'vitest';
import { connectPglite } from '../../server/db/connect.js';
import { lockPath } from '../../server/db/lock.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { createTestDatabase } from '../helpers/db.js';
import { type ServerProcess, runScript, runUserCreate, startServerProcess, tempDataDir } from '../helpers/processes.js';

/** Processes start slowly on a busy machine (the first open of a data directory runs initdb). */
const PROCESS_TEST = { timeout: 240_000 };

const created = /^Created (client|admin) account (\d+) for (.+) <(.+)> \((.+)\)\.$/m;

const account = (email: string, extra: string[] = []) => [
  '--email',
  email,
  '--password',
  'correct horse 42',
  '--name',
  'Asha Devi Rao',
  '--role',
  'client',
  ...extra,
];

/** A non-loopback IPv4 address of this machine, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('npm run user:create with the embedded database', () => {
  const data = tempDataDir();
  const env = { DATA_DIR: data.dir };
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    data.remove();
  });

  it('creates an account in the data directory when no server runs, and prints its id', PROCESS_TEST, async () => {
    const result = await runUserCreate(account('Asha@Example.com', ['--height', '1.62', '--weight', '64.5']), env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [, role, id, name, email, via] = created.exec(result.stdout) ?? [];
    expect({ role, name, email, via }).toEqual({
      role: 'client',
      name: 'Asha Devi Rao',
      email: 'asha@example.com',
      via: `directly in ${path.resolve(data.dir)}`,
    });
    expect(Number(id)).toBeGreaterThan(0);
    expect(existsSync(lockPath(data.dir))).toBe(false);
  });

  it('refuses a duplicate email (any case) with exit code 1', PROCESS_TEST, async () => {
    const result = await runUserCreate(account('ASHA@example.com'), env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('An account with the email asha@example.com already exists.');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['--email', 'a@example.com'], 'Missing --password, --name, --role.'],
    [account('b@example.com').map((a) => (a === 'client' ? 'dietitian' : a)), '--role must be client or admin, not "dietitian".'],
    [account('not-an-email'), '--email: Enter a valid email address'],
    [
      [...account('c@example.com').slice(0, 2), '--password', 'short', ...account('').slice(4)],
      '--password: Password must be at least 10 characters',
    ],
    [account('d@example.com', ['--height', 'tall']), '--height must be a number in metres (e.g. 1.72), not "tall".'],
    [account('e@example.com', ['--weight', '900']), '--weight: Weight must be between 1 and 500 kg'],
    [[...account('f@example.com'), '--admin'], "Unknown option '--admin'"],
  ])('refuses %j with exit code 2: %s', PROCESS_TEST, async (args, message) => {
    const result = await runUserCreate(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('stores the account with a hashed password and the given details', PROCESS_TEST, async () => {
    const handle = await connectPglite(data.dir);
    try {
      const rows = await handle.db.selectFrom('users').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        email: 'asha@example.com',
        first_name: 'Asha',
        last_name: 'Devi Rao',
        role: 2,
        height_m: 1.62,
        weight_kg: 64.5,
        is_active: true,
      });
      expect(rows[0]!.password_hash).toMatch(/^scrypt\$/);
      expect(rows[0]!.password_hash).not.toContain('correct horse 42');
    } finally {
      await handle.close();
    }
  });

  it('goes through the running server, whose new accounts sign in over REST and tRPC', PROCESS_TEST, async () => {
    server = await startServerProcess({ ...env, HOST: '0.0.0.0' });
    const result = await runUserCreate(
      account('ravi@example.com').map((a) => (a === 'Asha Devi Rao' ? 'Ravi Kumar' : a)),
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(created.exec(result.stdout)?.[5]).toBe(`through the running server, process ${server.pid}`);
    const admin = await runUserCreate(
      ['--email', 'meera@example.com', '--password', 'dietitian-pw', '--name', 'Meera Iyer', '--role', 'admin'],
      env,
    );
    expect(admin.code).toBe(0);

    const duplicate = await runUserCreate(account('ravi@example.com'), env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr.trim()).toBe('An account with the email ravi@example.com already exists.');

    const rest = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ravi@example.com', password: 'correct horse 42', role: 2 }),
    });
    expect(rest.status).toBe(200);
    const signedIn = (await rest.json()) as { data: { token: string; fullName: string } };
    expect(signedIn.data.fullName).toBe('Ravi Kumar');

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson })] });
    const session = await trpc.auth.signIn.mutate({ email: 'meera@example.com', password: 'dietitian-pw', role: 1 });
    expect(session.data.fullName).toBe('Meera Iyer');
    const authed = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${session.data.token}` } })],
    });
    expect((await authed.auth.checkAuthorization.query()).data).toMatchObject({ fullName: 'Meera Iyer', role: 1 });

    // The README's Node example: typed calls over HTTP and the feed subscription over WebSocket.
    const example = await runScript('scripts/trpc-example.ts', [], {
      POSHAN_URL: server.url,
      POSHAN_EMAIL: 'ravi@example.com',
      POSHAN_PASSWORD: 'correct horse 42',
      POSHAN_WATCH_SECONDS: '1',
    });
    expect(example.stderr).toBe('');
    expect(example.code).toBe(0);
    expect(example.stdout).toContain('signed in as Ravi Kumar');
    expect(example.stdout).toMatch(/Session is valid for user \d+ \(role 2\)/);
    expect(example.stdout).toMatch(/^\[\d+\] ready$/m);
    expect(example.stdout).toContain('Signed out.');
  });

  it('keeps the internal route to loopback callers holding the secret', PROCESS_TEST, async () => {
    const url = `${server!.url}/internal/users`;
    const token = readFileSync(path.join(data.dir, 'internal-token'), 'utf8').trim();
    const post = (target: string, headers: Record<string, string>) =>
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({}) });

    expect((await post(url, {})).status).toBe(401);
    expect((await post(url, { authorization: 'Bearer not-the-secret' })).status).toBe(401);
    expect((await post(url, { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
    const invalid = await post(url, { authorization: `Bearer ${token}` });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { data: { fieldErrors: Record<string, string[]> } }).data.fieldErrors.email).toEqual([
      'Email is required',
    ]);
    if (externalAddress) {
      const remote = `http://${externalAddress}:${new URL(server!.url).port}/internal/users`;
      expect((await post(remote, { authorization: `Bearer ${token}` })).status).toBe(404);
    }
  });

  it('opens the directory itself again once the server has stopped', PROCESS_TEST, async () => {
    expect((await server!.stop('SIGTERM')).code).toBe(0);
    const result = await runUserCreate(account('later@example.com'), env);
    expect(result.code).toBe(0);
    expect(created.exec(result.stdout)?.[5]).toBe(`directly in ${path.resolve(data.dir)}`);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('npm run user:create with DATABASE_URL (runs when TEST_DATABASE_URL is set)', () => {
  it('writes to Postgres directly', PROCESS_TEST, async () => {
    const database = await createTestDatabase();
    try {
      const env = { DATABASE_URL: database.url, DATA_DIR: '/nonexistent/poshan-must-not-be-used' };
      const result = await runUserCreate(account('pg@example.com', ['--weight', '70']), env);
      expect(result.stderr).toBe('');
      expect(created.exec(result.stdout)?.[5]).toBe('directly in Postgres');
      const row = await database.db.selectFrom('users').select(['email', 'role', 'weight_kg']).executeTakeFirstOrThrow();
      expect(row).toEqual({ email: 'pg@example.com', role: 2, weight_kg: 70 });
      const again = await runUserCreate(account('pg@example.com'), env);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe('An account with the email pg@example.com already exists.');
    } finally {
      await database.close();
    }
  });
});

describe('npm run user:create with an unreachable DATABASE_URL', () => {
  it('says which database it cannot reach', PROCESS_TEST, async () => {
    const result = await runUserCreate(account('x@example.com'), { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Cannot reach Postgres at 127.0.0.1:1/nowhere (DATABASE_URL)');
  });
});
