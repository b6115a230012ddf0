import { type Kysely, sql } from 'kysely';

/**
 * A transaction that will publish a feed event before it commits (a like
 * toggle) says so with the transaction-local setting poshan.feed_event_follows;
 * its event already makes every instance forget its kept feed pages, so no
 * second notification is sent for it. Changes from anywhere else (a cascade,
 * an operator's SQL) still notify poshan_feed_changed, as in 2026-11-24T0300.
 * A function and triggers of their own replace that migration's, so the two
 * apply in either order.
 * Frozen in time: never import application code here.
 */
const TABLES = ['feed_posts', 'feed_likes'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function feed_changed_notify_unannounced() returns trigger language plpgsql as $$
    begin
      if current_setting('poshan.feed_event_follows', true) = 'on' then
        return null;
      end if;
      perform pg_notify('poshan_feed_changed', '');
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`drop trigger if exists feed_changed_notify on ${sql.table(table)}`.execute(db);
    await sql`
      create trigger feed_changed_unannounced after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function feed_changed_notify_unannounced()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger feed_changed_unannounced on ${sql.table(table)}`.execute(db);
    await sql`
      create trigger feed_changed_notify after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function feed_changed_notify()`.execute(db);
  }
  await sql`drop function feed_changed_notify_unannounced()`.execute(db);
}
