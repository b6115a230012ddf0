import { type Kysely, sql } from 'kysely';

/**
 * Appointments (decision 119). A dietitian's availability (weekly
 * hours and breaks in India time, days off and one-off changes, session
 * lengths and a buffer), the appointments booked against it, and the
 * reminders already sent.
 *
 * Two bookings never hold the same dietitian's time: an exclusion constraint
 * over the range each appointment keeps busy (its start up to its end plus the
 * dietitian's buffer), per dietitian. The per-dietitian equality is written as
 * an overlap of the one-point range [dietitian_id, dietitian_id], so the GiST
 * index needs no extension (btree_gist) and works the same on PGlite and
 * Postgres. Cancelled appointments give their time back.
 *
 * Frozen in time: never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('availability_settings')
    .addColumn('dietitian_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('consultation_minutes', 'integer', (c) => c.notNull().defaultTo(30).check(sql`consultation_minutes between 10 and 180`))
    .addColumn('follow_up_minutes', 'integer', (c) => c.notNull().defaultTo(30).check(sql`follow_up_minutes between 10 and 180`))
    .addColumn('buffer_minutes', 'integer', (c) => c.notNull().defaultTo(10).check(sql`buffer_minutes between 0 and 120`))
    // Whether visitors and clients can book this dietitian at all.
    .addColumn('bookable', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Weekly pattern in India time: 'hours' open a window on an ISO weekday (1 = Monday), 'break' closes one.
  await db.schema
    .createTable('availability_weekly')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('dietitian_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('weekday', 'smallint', (c) => c.notNull().check(sql`weekday between 1 and 7`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('hours', 'break')`))
    .addColumn('start_minute', 'integer', (c) => c.notNull().check(sql`start_minute between 0 and 1439`))
    .addColumn('end_minute', 'integer', (c) => c.notNull().check(sql`end_minute between 1 and 1440`))
    .addCheckConstraint('availability_weekly_order', sql`end_minute > start_minute`)
    .execute();
  await db.schema.createIndex('availability_weekly_dietitian_idx').on('availability_weekly').columns(['dietitian_id', 'weekday']).execute();

  // One-off changes of one India-time day: 'off' closes the window (the whole day when no minutes are
  // given: a day off), 'open' opens one beyond the weekly hours.
  await db.schema
    .createTable('availability_exceptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('dietitian_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('off', 'open')`))
    .addColumn('start_minute', 'integer', (c) => c.check(sql`start_minute between 0 and 1439`))
    .addColumn('end_minute', 'integer', (c) => c.check(sql`end_minute between 1 and 1440`))
    .addColumn('note', 'text', (c) => c.check(sql`char_length(note) <= 200`))
    .addCheckConstraint(
      'availability_exceptions_window',
      sql`(start_minute is null and end_minute is null and kind = 'off') or (start_minute is not null and end_minute is not null and end_minute > start_minute)`,
    )
    .execute();
  await db.schema
    .createIndex('availability_exceptions_dietitian_day_idx')
    .on('availability_exceptions')
    .columns(['dietitian_id', 'day'])
    .execute();

  await db.schema
    .createTable('appointments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('client_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // A visitor's free consultation, booked with the callback request (client_id joins on conversion).
    .addColumn('consultation_id', 'integer', (c) => c.references('consultations.id').onDelete('cascade'))
    .addColumn('dietitian_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('consultation', 'follow_up')`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    // The end plus the dietitian's buffer at booking time: the range [starts_at, busy_until) is what no
    // other appointment of the dietitian may overlap.
    .addColumn('busy_until', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('booked').check(sql`status in ('booked', 'cancelled', 'done', 'no_show')`))
    .addColumn('booked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_request_id', 'uuid')
    // When the current time was set (booked or last moved): a reminder whose moment had passed by then is not sent.
    .addColumn('timed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('cancelled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('cancel_reason', 'text', (c) => c.check(sql`char_length(cancel_reason) <= 1000`))
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('appointments_has_person', sql`client_id is not null or consultation_id is not null`)
    .addCheckConstraint('appointments_order', sql`ends_at > starts_at and busy_until >= ends_at`)
    .addCheckConstraint('appointments_cancelled_has_time', sql`(status = 'cancelled') = (cancelled_at is not null)`)
    .addUniqueConstraint('appointments_client_request_once', ['booked_by', 'client_request_id'])
    .execute();
  await sql`
    alter table appointments add constraint appointments_no_overlap
    exclude using gist (
      int4range(dietitian_id, dietitian_id, '[]') with &&,
      tstzrange(starts_at, busy_until, '[)') with &&
    ) where (status <> 'cancelled')
  `.execute(db);
  await db.schema.createIndex('appointments_client_starts_idx').on('appointments').columns(['client_id', 'starts_at']).execute();
  await db.schema.createIndex('appointments_starts_idx').on('appointments').columns(['starts_at', 'id']).execute();
  await db.schema.createIndex('appointments_consultation_idx').on('appointments').column('consultation_id').execute();

  // A reminder sent (or being sent) for one start time of one appointment: recorded in the transaction
  // that queues it, so a retried job, a restart or a second instance never sends it twice.
  await db.schema
    .createTable('appointment_reminders')
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('which', 'text', (c) => c.notNull().check(sql`which in ('24h', '1h')`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('appointment_reminders_pk', ['appointment_id', 'which', 'starts_at'])
    .execute();

  // Appointment mails carry an .ics invitation: kept with the mail, so a retried or swept mail sends it too.
  await db.schema.alterTable('outbox').addColumn('attachments', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('attachments').execute();
  await db.schema.dropTable('appointment_reminders').ifExists().execute();
  await db.schema.dropTable('appointments').ifExists().execute();
  await db.schema.dropTable('availability_exceptions').ifExists().execute();
  await db.schema.dropTable('availability_weekly').ifExists().execute();
  await db.schema.dropTable('availability_settings').ifExists().execute();
}
