/**
 * The like toggle's statements as the app sends them (server/feed/repo.ts
 * lockPost and toggleLike), for the bench's hand-written servers: the
 * reference (reference-server.ts) and the bare-statements layer
 * (layers-server.ts) run exactly these.
 */

/** The post's row lock with its kept count; the transaction says its feed event follows. */
export const LOCK_POST_SQL = `select like_count, set_config('poshan.feed_event_follows', 'on', true) from feed_posts where id = $1 for update`;

/** Unlike, or like, and the change to the count, in one statement ($1 post, $2 user). */
export const TOGGLE_SQL = `with gone as (delete from feed_likes where post_id = $1 and user_id = $2 returning 1),
  added as (insert into feed_likes (post_id, user_id) select $1, $2 where not exists (select 1 from gone)
            on conflict (post_id, user_id) do nothing returning 1)
  select exists (select 1 from added) as liked, ((select count(*) from added) - (select count(*) from gone))::int4 as change`;
