import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createLogger } from '../../server/logger.js';
import { createMailer } from '../../server/mail/mailer.js';
import { createTestDatabase } from '../helpers/db.js';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  await migrateToLatest(handle.db);
});
afterAll(() => handle?.close());

const statusOf = async (id: number) =>
  (await handle.db.selectFrom('outbox').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).status;

it('without SMTP, keeps every mail in the outbox and marks it logged', async () => {
  const mailer = createMailer({ db: handle.db, logger: createLogger('silent'), from: 'test@poshan.test' });
  const sent = await mailer.send({ to: 'a@example.test', subject: 'Hello', text: 'Body' });
  expect(sent.status).toBe('logged');
  expect(await statusOf(sent.id)).toBe('logged');
});

it('queue answers before delivery and records a failed delivery in the outbox', async () => {
  // An SMTP server that accepts and says nothing, until the test hangs up: delivery is
  // still under way when queue() has answered, then fails.
  const held = new Set<Socket>();
  const silent = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  const mailer = createMailer({
    db: handle.db,
    logger: createLogger('silent'),
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: 'test@poshan.test',
  });
  const queued = await mailer.queue({ to: 'b@example.test', subject: 'Reset', text: 'Link' });
  expect(await statusOf(queued.id)).toBe('queued');
  await vi.waitFor(() => expect(held.size).toBe(1));
  for (const socket of held) socket.destroy();
  silent.close();
  await mailer.drain();
  const row = await handle.db.selectFrom('outbox').select(['status', 'error']).where('id', '=', queued.id).executeTakeFirstOrThrow();
  expect(row.status).toBe('failed');
  expect(row.error).toBeTruthy();
});
