import { type Kysely, sql } from 'kysely';

/**
 * The visitor's own time zone (an IANA name from their browser), so that the mails sent after the
 * request (the booked mail when a dietitian accepts it, or when the visitor confirms) name the time as
 * the booking screen did. Null for requests made before, and for callers who sent none: India time.
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table consultations add column time_zone text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table consultations drop column if exists time_zone`.execute(db);
}
