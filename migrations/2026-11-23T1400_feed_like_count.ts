import { type Kysely, sql } from 'kysely';

/**
 * Feed posts keep their like count: reads stop counting rows on
 * every page. A trigger on feed_likes keeps the column exact in the same
 * transaction as the like itself, whoever writes the row (the like toggle,
 * a cascade from a removed account, the demo seed). Frozen in time: never
 * import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('feed_posts')
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`like_count >= 0`))
    .execute();
  await sql`update feed_posts p set like_count = (select count(*) from feed_likes l where l.post_id = p.id)`.execute(db);
  await sql`
    create function feed_likes_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update feed_posts set like_count = like_count + 1 where id = new.post_id;
      else
        update feed_posts set like_count = like_count - 1 where id = old.post_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger feed_likes_count after insert or delete on feed_likes
    for each row execute function feed_likes_count()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger feed_likes_count on feed_likes`.execute(db);
  await sql`drop function feed_likes_count()`.execute(db);
  await db.schema.alterTable('feed_posts').dropColumn('like_count').execute();
}
