import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientSearch } from '../../server/users/repo.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { callerFor } from '../helpers/callers.js';

/**
 * The console's client search must stay index-backed as the client list
 * grows: on a few thousand clients, every search shape is planned on the
 * prefix indexes of migration 2026-11-22T1500_admin, never a table scan.
 */
let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.user({ role: 'admin' });
  await sql`
    insert into users (email, first_name, last_name, role, phone)
    select 'client' || n || '@example.test', 'First' || n, 'Last' || (n % 97), 2, '9' || lpad(n::text, 9, '0')
    from generate_series(1, 5000) as n`.execute(server.deps.db);
  await sql`analyze users`.execute(server.deps.db);
});
afterAll(() => server?.stop());

async function planOf(q: string) {
  const query = clientSearch(server.deps.db, { status: 'all', q }).select('u.id').compile();
  const rows = await server.deps.db.executeQuery(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
  return rows.rows.map((r) => Object.values(r as Record<string, string>)[0]).join('\n');
}

it.each([
  // Under the C collation (PGlite) the unique lower(email) index serves prefixes too; elsewhere the text_pattern_ops one does.
  [
    'an email or name prefix',
    'client12',
    [/users_role_email_prefix_idx|users_email_lower_key/, /users_role_name_prefix_idx/, /users_role_last_name_prefix_idx/],
  ],
  ['a full name', 'first12 last1', [/users_role_name_prefix_idx/]],
  ['a phone prefix', '900000012', [/users_role_phone_prefix_idx/]],
])('plans a search by %s on the prefix indexes', async (_label, q, indexes) => {
  const plan = await planOf(q);
  expect(plan).not.toContain('Seq Scan');
  for (const index of indexes) expect(plan).toMatch(index);
});

it('finds the right rows among thousands', async () => {
  const caller = await callerFor(server, admin.token);
  const found = await caller.admin.clients.list({ q: 'CLIENT4999@', pageSize: 10 });
  expect(found.total).toBe(1);
  expect(found.items[0]).toMatchObject({ email: 'client4999@example.test', fullName: 'First4999 Last52' });
  const byPhone = await caller.admin.clients.list({ q: '90000 0123', pageSize: 10 });
  expect(byPhone.items.map((c) => c.email).sort()).toEqual(
    [
      'client1230',
      'client1231',
      'client1232',
      'client1233',
      'client1234',
      'client1235',
      'client1236',
      'client1237',
      'client1238',
      'client1239',
    ]
      .map((e) => `${e}@example.test`)
      .sort(),
  );
});
