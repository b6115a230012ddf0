import { type Kysely, sql } from 'kysely';

/**
 * A visitor's chosen consultation time is held, not booked: the time stays out
 * of other visitors' offers until the hold expires, and becomes an appointment
 * only when the visitor confirms it (the link in the booking mail) or a
 * dietitian accepts the request. A paying client may book over a live hold; the
 * hold is then released. Expiry is a moment, not a job: a hold whose
 * expires_at has passed counts for nothing.
 *
 * requester_ip is the address the request came from, kept to cap the live
 * holds one address may have.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('consultation_holds')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('consultation_id', 'integer', (c) => c.notNull().unique().references('consultations.id').onDelete('cascade'))
    .addColumn('dietitian_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('busy_until', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('requester_ip', 'text', (c) => c.notNull().check(sql`char_length(requester_ip) <= 100`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('held').check(sql`status in ('held', 'confirmed', 'released')`))
    .addColumn('appointment_id', 'integer', (c) => c.references('appointments.id').onDelete('set null'))
    .addColumn('settled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('consultation_holds_order', sql`ends_at > starts_at and busy_until >= ends_at`)
    .addCheckConstraint('consultation_holds_settled', sql`(status = 'held') = (settled_at is null)`)
    .execute();
  await sql`create index consultation_holds_live_idx on consultation_holds (dietitian_id, starts_at) where status = 'held'`.execute(db);
  await sql`create index consultation_holds_ip_idx on consultation_holds (requester_ip, expires_at) where status = 'held'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consultation_holds').ifExists().execute();
}
