import { type Kysely, sql } from 'kysely';

/**
 * Every change to feed posts or likes, whoever makes it (the feed service, a
 * cascade from a removed account, an operator's SQL), notifies the channel
 * poshan_feed_changed when its transaction commits: each instance then
 * forgets the feed pages it keeps in memory. One notification per
 * statement, and Postgres folds the identical ones of a transaction into one.
 * Where 2026-11-24T0600 ran first (a late-landing earlier name still runs),
 * its triggers already do this job: only the function is made, which its
 * `down` needs, so the two give the same triggers in either order.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function feed_changed_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('poshan_feed_changed', '');
      return null;
    end $$`.execute(db);
  const { rows } = await sql<{ later: boolean }>`select to_regproc('feed_changed_notify_unannounced') is not null as later`.execute(db);
  if (rows[0]?.later) return;
  for (const table of ['feed_posts', 'feed_likes']) {
    await sql`
      create trigger feed_changed_notify after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function feed_changed_notify()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['feed_posts', 'feed_likes']) {
    await sql`drop trigger if exists feed_changed_notify on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function feed_changed_notify()`.execute(db);
}
