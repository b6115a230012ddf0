import { type Kysely, sql } from 'kysely';

/**
 * The send's functions leave the migrations: `message_send` (one send, fourteen arguments), `message_send_batch`,
 * `message_recipients` and `record_push_notices` are now source files beside their domains
 * (server/messages/sql/, server/notifications/sql/), applied after the migrations as repeatable definitions
 * (server/db/definitions.ts), with one `message_send(jsonb, text)` for one send or many. Migrations hold tables.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists message_send_batch(jsonb, text)`.execute(db);
  await sql`drop function if exists message_send(integer, integer, text, uuid, text, timestamptz, text, integer, bigint, text, timestamptz, text, jsonb, text)`.execute(
    db,
  );
  await sql`drop function if exists record_push_notices(jsonb)`.execute(db);
  await sql`drop function if exists message_recipients(integer, integer, text)`.execute(db);
}

/** Nothing to put back here: the definitions make these functions again whenever the server starts. */
export async function down(_db: Kysely<any>): Promise<void> {}
