import type { Kysely } from 'kysely';

/**
 * The feed's event log keeps what a like.changed event said when it was
 * published: the post's count after the toggle and whether the actor now
 * likes it. A subscriber that reconnects is then replayed every
 * event exactly as the live stream sent it, instead of only the newest count
 * per post. Null for other kinds and for events logged before this column.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feed_events').addColumn('like_count', 'integer').addColumn('liked', 'boolean').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feed_events').dropColumn('liked').dropColumn('like_count').execute();
}
