import type { NewUser } from '../db/schema.js';
import type { Db } from '../db/index.js';
import { ROLE } from '../auth/roles.js';
import { sql } from 'kysely';
import type { UserUpdate } from '../db/schema.js';
import { likePrefix, type PageRequest, pagedList } from '../db/paging.js';
import type { ClientSearch } from './schema.js';

/** A client account by id, whether or not it is active (a dietitian still reaches a deactivated client's records). */
export function findClientAccount(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'height_m', 'weight_kg'])
    .where('id', '=', id)
    .where('role', '=', ROLE.client)
    .executeTakeFirst();
}

export function setCurrentWeight(db: Db, id: number, weightKg: number | null) {
  return db.updateTable('users').set({ weight_kg: weightKg, updated_at: new Date() }).where('id', '=', id).execute();
}

export function findProfile(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'phone', 'height_m', 'weight_kg'])
    .where('id', '=', id)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** Sets the values given; a key left undefined keeps its column as it is. */
export function updateProfile(
  db: Db,
  id: number,
  values: { first_name?: string; last_name?: string; phone?: string | null; height_m?: number | null; weight_kg?: number | null },
) {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  return db
    .updateTable('users')
    .set({ ...given, updated_at: new Date() })
    .where('id', '=', id)
    .where('is_active', '=', true)
    .returning(['email', 'first_name', 'last_name', 'phone', 'height_m', 'weight_kg'])
    .executeTakeFirst();
}

/** Emails are unique case-insensitively (users_email_lower_key); `email` is already lower case. */
export function findUserIdByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
}

export function insertUser(db: Db, user: NewUser) {
  return db.insertInto('users').values(user).returning(['id', 'email', 'first_name', 'last_name', 'role']).executeTakeFirstOrThrow();
}

/* The console's side: the client list, a client's record and its changes. */

const summaryColumns = ['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.phone', 'u.is_active', 'u.created_at'] as const;

/**
 * The client list and its count share one filter. The search is a prefix
 * match on expressions that have text_pattern_ops indexes (migration
 * 2026-11-22T1500_admin), so Postgres answers it from the indexes. The
 * expressions must stay written exactly as indexed.
 */
export function clientSearch(db: Db, input: ClientSearch) {
  let q = db.selectFrom('users as u').where('u.role', '=', ROLE.client);
  if (input.status === 'active') q = q.where('u.is_active', '=', true);
  if (input.status === 'inactive') q = q.where('u.is_active', '=', false);
  const term = input.q?.trim().toLowerCase();
  if (term) {
    const prefix = likePrefix(term);
    const digits = term.replace(/[\s\-().+]/g, '');
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(email)`, 'like', prefix),
        eb(sql`lower(first_name || ' ' || last_name)`, 'like', prefix),
        eb(sql`lower(last_name)`, 'like', prefix),
        ...(/^\d+$/.test(digits) ? [eb('u.phone', 'like', likePrefix(digits))] : []),
      ]),
    );
  }
  return q;
}

/** A page of client summaries, newest first, with the total matching the same search. */
export function pageClients(db: Db, input: PageRequest & { status: 'all' | 'active' | 'inactive'; q?: string }) {
  return pagedList(input, clientSearch(db, input), (q) =>
    q
      .select([...summaryColumns, (eb) => eb('u.password_hash', 'is not', null).as('has_password')])
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc'),
  );
}

export function findClient(db: Db, id: number) {
  return db
    .selectFrom('users as u')
    .select([
      ...summaryColumns,
      'u.height_m',
      'u.weight_kg',
      'u.condition_notes',
      (eb) => eb('u.password_hash', 'is not', null).as('has_password'),
    ])
    .where('u.id', '=', id)
    .where('u.role', '=', ROLE.client)
    .executeTakeFirst();
}

/** Locks the client's row for a change, so concurrent edits apply one after the other. */
export function findClientForUpdate(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'phone', 'height_m', 'weight_kg', 'condition_notes', 'is_active'])
    .where('id', '=', id)
    .where('role', '=', ROLE.client)
    .forUpdate()
    .executeTakeFirst();
}

export function emailTakenByOther(db: Db, email: string, id: number) {
  return db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('id', '!=', id)
    .executeTakeFirst();
}

export function updateClient(db: Db, id: number, values: UserUpdate) {
  return db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .where('role', '=', ROLE.client)
    .execute();
}

export function ratingOf(db: Db, clientId: number) {
  return db
    .selectFrom('ratings')
    .select(['id', 'half_stars', 'comment', 'is_published', 'created_at'])
    .where('user_id', '=', clientId)
    .executeTakeFirst();
}

export function bookingOf(db: Db, clientId: number) {
  return db
    .selectFrom('consultations')
    .select('id')
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
