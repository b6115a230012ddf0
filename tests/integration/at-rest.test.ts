import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { connectPglite } from '../../server/db/connect.js';
import type { DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { loadConfig } from '../../server/env.js';
import { PAINT_FIRST_SCRIPT_HASH } from '../../server/http/paint-first.js';
import { createLogger } from '../../server/logger.js';
import { HIDDEN_IN_OUTBOX, type Mail, createMailer } from '../../server/mail/mailer.js';
import { passwordResetMail } from '../../server/mail/templates.js';
import { resolveAppSecret } from '../../server/secret.js';
import { createTestDatabase } from '../helpers/db.js';
import { captureLogs } from '../helpers/log-capture.js';
import { tempDataDir } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Credentials and data at rest: mail without usable links, logs without secrets, DATA_DIR for its owner only, a narrow CSP. */

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('mail: the outbox and the log never hold a usable link', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
    await migrateToLatest(handle.db);
  }, 180_000);
  afterAll(() => handle?.close());

  it('stores the mail with the link hidden, logs no body, and delivers the whole mail', async () => {
    const logs = captureLogs();
    const logger = createLogger({ level: 'debug', destination: logs.destination });
    const delivered: Mail[] = [];
    const mailer = createMailer({ db: handle.db, logger, from: 'test@poshan.test', sink: (m) => delivered.push(m) });

    const link = 'http://127.0.0.1:3000/reset-password?token=SECRET-TOKEN-abc123';
    const sent = await mailer.send(passwordResetMail({ to: 'owner@example.test', firstName: 'Asha', link, validMinutes: 60 }));
    const row = await handle.db.selectFrom('outbox').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();

    expect(row.body_text).not.toContain('SECRET-TOKEN');
    expect(row.body_text).toContain(HIDDEN_IN_OUTBOX);
    expect(row.body_text).toContain('Hello Asha,');
    expect(logs.text).toContain('mail kept in the outbox');
    expect(logs.text).not.toContain('SECRET-TOKEN');
    expect(logs.text).not.toContain('Hello Asha');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.text).toContain(link);
  });

  it('the migration hid the links of mail kept before it', async () => {
    // Rows written the old way (link in the body) are scrubbed by 2026-11-23T1200_outbox_without_credentials.
    const { up } = await import('../../migrations/2026-11-23T1200_outbox_without_credentials.js');
    const old = await handle.db
      .insertInto('outbox')
      .values({
        to_address: 'old@example.test',
        subject: 'Old',
        body_text: 'Open this:\n\nhttp://x.test/reset-password?token=OLD-TOKEN\n\nBye',
        status: 'logged',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await up(handle.db);
    const row = await handle.db.selectFrom('outbox').select('body_text').where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(row.body_text).toBe(`Open this:\n\n${HIDDEN_IN_OUTBOX}\n\nBye`);
  });
});

describe('DATA_DIR is for its owner only', () => {
  const tmp = tempDataDir();
  afterAll(() => tmp.remove());

  it('tightens an existing directory and secret to 0700 / 0600 at start', () => {
    const dir = path.join(tmp.dir, 'old');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'app-secret'), `${'a'.repeat(64)}\n`, { mode: 0o644 });
    chmodSync(path.join(dir, 'app-secret'), 0o644);

    expect(resolveAppSecret(loadConfig({ DATA_DIR: dir }))).toBe('a'.repeat(64));
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, 'app-secret'))).toBe(0o600);
  });

  it('creates a new secret 0600 in a 0700 directory', () => {
    const dir = path.join(tmp.dir, 'new');
    resolveAppSecret(loadConfig({ DATA_DIR: dir }));
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, 'app-secret'))).toBe(0o600);
  });

  it('keeps the embedded database directory 0700', { timeout: 180_000 }, async () => {
    const dir = path.join(tmp.dir, 'db');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const db = await connectPglite(dir);
    await db.close();
    expect(modeOf(dir)).toBe(0o700);
  });
});

describe('Content-Security-Policy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'silent' });
  }, 180_000);
  afterAll(() => server?.stop());

  it('connects only to this origin and its own WebSocket, and shows only our own images', async () => {
    const res = await fetch(`${server.url}/healthz`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const host = new URL(server.url).host;
    expect(csp).toContain(`connect-src 'self' ws://${host} wss://${host};`);
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).not.toMatch(/connect-src[^;]*\bws: /);
  });

  it('runs no inline script but the prerendered pages’ loader, by its hash', async () => {
    const csp = (await fetch(`${server.url}/healthz`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' ${PAINT_FIRST_SCRIPT_HASH};`);
    expect(/script-src [^;]*/.exec(csp)?.[0]).not.toContain('unsafe');
  });

  it('a forged Host cannot add sources', async () => {
    // In-process: Node's own parser would refuse most such headers before the app sees them.
    const res = await createApp(server.deps, { serveClient: false }).request('/healthz', {
      headers: { host: "evil.test; script-src 'unsafe-inline'" },
    });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toContain('evil.test');
  });

  it('names each request’s own host, whichever host came before', async () => {
    const app = createApp(server.deps, { serveClient: false });
    for (const host of ['one.test:3000', 'two.test', 'one.test:3000', 'one.test:3000', 'two.test']) {
      const csp = (await app.request('/healthz', { headers: { host } })).headers.get('content-security-policy') ?? '';
      expect(/connect-src [^;]*/.exec(csp)?.[0]).toBe(`connect-src 'self' ws://${host} wss://${host}`);
    }
  });
});
