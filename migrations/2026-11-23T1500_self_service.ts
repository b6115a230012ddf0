import type { Kysely } from 'kysely';

/**
 * Self-service: each sign-in remembers the browser that made it, so
 * a client can see which devices are signed in; mails keep their HTML part
 * beside the plain text. Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('body_html', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('body_html').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
}
