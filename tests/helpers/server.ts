import { randomBytes } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import { loadConfig } from '../../server/env.js';
import { createDeps, listen, type RunningServer } from '../../server/server.js';
import type { Mail } from '../../server/mail/mailer.js';
import { createUser } from '../../server/users/service.js';
import { connectPostgres } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { createTestDatabase } from './db.js';

export type TestUser = { id: number; email: string; password: string; token: string; refreshToken: string; role: number };

export type TestServer = RunningServer & {
  /** Creates a user with a session; `token` is its bearer token. */
  user(opts?: { role?: 'client' | 'admin'; firstName?: string; lastName?: string; heightM?: number; weightKg?: number }): Promise<TestUser>;
  /** fetch against the server; JSON body and bearer token optional. */
  request(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
  /** Every mail as its recipient receives it (the outbox keeps them with links hidden). */
  mails: Array<Mail & { outboxId: number }>;
  /** The token of the newest password or set-password link mailed to this address. */
  lastLinkToken(email: string): string | null;
};

let userCounter = 0;

/** A real HTTP server on a free port over a fresh database. */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: { serveClient?: boolean; logDestination?: DestinationStream; clock?: () => Date } = {},
): Promise<TestServer> {
  const handle = await createTestDatabase();
  // Browser tests serve the client built for this run (tests/helpers/build-client.ts).
  const clientDistDir = opts.serveClient ? inject('clientDistDir') : undefined;
  if (opts.serveClient && !clientDistDir) throw new Error('serveClient needs the browser project, whose globalSetup builds the client');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0', CLIENT_DIST_DIR: clientDistDir, ...env });
  const mails: TestServer['mails'] = [];
  const deps = await createDeps(config, handle, randomBytes(32).toString('hex'), {
    logDestination: opts.logDestination,
    clock: opts.clock,
    mailSink: (mail) => mails.push(mail),
  });
  const server = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: opts.serveClient ?? false });
  return {
    ...server,
    mails,
    lastLinkToken(email) {
      const mail = mails.filter((m) => m.to === email.toLowerCase()).at(-1);
      const match = mail && /\/reset-password\?token=([\w%-]+)/.exec(mail.text);
      return match ? decodeURIComponent(match[1]!) : null;
    },
    async user(opts = {}) {
      userCounter += 1;
      const email = `user${userCounter}-${randomBytes(3).toString('hex')}@example.test`;
      const password = `pw-${randomBytes(6).toString('hex')}`;
      const role = opts.role === 'admin' ? ROLE.admin : ROLE.client;
      const u = await createUser(deps.db, {
        email,
        password,
        firstName: opts.firstName ?? 'Test',
        lastName: opts.lastName ?? `User${userCounter}`,
        role,
        heightM: opts.heightM,
        weightKg: opts.weightKg,
      });
      const s = await issueSession(deps.db, u.id);
      return { id: u.id, email, password, token: s.token, refreshToken: s.refreshToken, role };
    },
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, body, headers: res.headers };
    },
    async stop() {
      await server.close();
      await handle.close();
    },
  };
}

/**
 * A second instance of the app on the test server's database, as a second
 * process would run: its own pool and LISTEN connection on Postgres, the one
 * in-process database on PGlite.
 */
export async function startSecondInstance(
  server: TestServer,
  env: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const shared = server.deps.dbHandle as DbHandle & { url?: string };
  const own = shared.url ? connectPostgres(shared.url, 5) : null;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: '0', ...env });
  const deps = await createDeps(config, own ?? shared, server.deps.secret);
  const running = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  return {
    url: running.url,
    async stop() {
      await running.close();
      await own?.close();
    },
  };
}
