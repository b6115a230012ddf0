import { sql } from 'kysely';
import { ROLE } from '../../auth/roles.js';
import type { Db } from '../../db/index.js';

/** Each figure of the console's overview is one indexed aggregate. */

export function countNewBookings(db: Db) {
  return db
    .selectFrom('consultations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'new')
    .executeTakeFirst();
}

export function countOpenSupportRequests(db: Db) {
  return db
    .selectFrom('support_requests')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** Not cancelled and running on `today`. */
export function countActiveSubscriptions(db: Db, today: string) {
  return db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('cancelled_at', 'is', null)
    .where('start_date', '<=', today)
    .where('end_date', '>=', today)
    .executeTakeFirst();
}

export function countActiveClients(db: Db) {
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('role', '=', ROLE.client)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** The mean of all ratings in half stars (numeric, a string from pg) and their count. */
export function ratingAverage(db: Db) {
  return db
    .selectFrom('ratings')
    .select([sql<string | number | null>`avg(half_stars)`.as('avg_half'), (eb) => eb.fn.countAll().as('n')])
    .executeTakeFirst();
}

/** Visits and distinct visitors per day from `firstDay` to `lastDay`, along visits_day_visitor_idx. */
export function visitsPerDay(db: Db, firstDay: string, lastDay: string) {
  return db
    .selectFrom('visits')
    .select(['day', (eb) => eb.fn.countAll().as('visits'), sql<number>`count(distinct visitor_hash)`.as('visitors')])
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .groupBy('day')
    .execute();
}

/** Lab reports clients added to their own record since `since`, with the newest one's client (the count links there). */
export function newLabReports(db: Db, since: Date) {
  return db
    .selectFrom('documents as d')
    .innerJoin('users as u', 'u.id', 'd.uploaded_by')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | null>`(array_agg(d.client_id order by d.created_at desc))[1]`.as('newest_client_id'),
    ])
    .where('d.kind', '=', 'lab-report')
    .where('u.role', '=', ROLE.client)
    .where('d.created_at', '>=', since)
    .executeTakeFirst();
}

/** Invoices a client says she paid (a pending claim) that no one has confirmed or rejected yet. */
export function countClaimsToConfirm(db: Db) {
  return db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'claimed')
    .executeTakeFirst();
}
