import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import type { Database, DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * The hand-written Database interface (server/db/schema.ts) must describe the
 * migrated database exactly. The list below is checked both ways: by the type
 * checker against the interface (a column added to or removed from the
 * interface without updating this list fails `tsc`), and by this test against
 * information_schema (a migration that drifts from the interface fails here).
 */
const expectedColumns = {
  users: [
    'id',
    'email',
    'first_name',
    'last_name',
    'role',
    'password_hash',
    'height_m',
    'weight_kg',
    'phone',
    'condition_notes',
    'is_active',
    'created_at',
    'updated_at',
  ],
  sessions: [
    'id',
    'user_id',
    'family_id',
    'family_started_at',
    'token_hash',
    'refresh_hash',
    'expires_at',
    'refresh_expires_at',
    'rotated_at',
    'revoked_at',
    'created_at',
    'user_agent',
  ],
  password_resets: ['token_hash', 'user_id', 'expires_at', 'used_at', 'created_at'],
  login_attempts: ['id', 'bucket', 'at'],
  auth_keys: ['kid', 'public_jwk', 'private_key_enc', 'created_at', 'retired_at'],
  outbox: [
    'id',
    'to_address',
    'subject',
    'body_text',
    'status',
    'error',
    'created_at',
    'sent_at',
    'body_html',
    'claim_token',
    'claimed_until',
    'attachments',
  ],
  countries: ['id', 'alpha2', 'name'],
  support_requests: ['id', 'user_id', 'name', 'email', 'message', 'status', 'created_at', 'reply', 'answered_at', 'answered_by'],
  consultations: [
    'id',
    'name',
    'email',
    'gender',
    'age',
    'height',
    'weight',
    'state',
    'contact',
    'country_id',
    'is_medical_condition',
    'status',
    'notes',
    'created_at',
    'client_id',
    'updated_at',
    'time_zone',
  ],
  feed_posts: ['id', 'author_id', 'description', 'created_at', 'updated_at', 'like_count'],
  feed_likes: ['post_id', 'user_id', 'created_at'],
  feed_events: ['id', 'kind', 'post_id', 'actor_id', 'created_at', 'like_count', 'liked'],
  ratings: ['id', 'user_id', 'half_stars', 'comment', 'is_published', 'created_at'],
  diet_plans: [
    'id',
    'client_id',
    'title',
    'from_date',
    'to_date',
    'pdf_data',
    'pdf_bytes',
    'created_by',
    'created_at',
    'version',
    'source',
    'content',
    'updated_at',
  ],
  weights: ['id', 'client_id', 'weight_kg', 'date', 'created_at'],
  subscriptions: [
    'id',
    'client_id',
    'plan_type',
    'plan_id',
    'plan_name',
    'list_price',
    'amount_received',
    'start_date',
    'end_date',
    'cancelled_at',
    'created_at',
  ],
  visits: ['id', 'day', 'visitor_hash', 'created_at'],
  diet_plan_versions: [
    'plan_id',
    'version',
    'title',
    'from_date',
    'to_date',
    'source',
    'content',
    'pdf_data',
    'pdf_bytes',
    'created_by',
    'created_at',
    'superseded_at',
  ],
  audit_log: ['id', 'actor_id', 'actor_email', 'action', 'entity', 'entity_id', 'summary', 'details', 'created_at'],
  check_ins: [
    'id',
    'client_id',
    'date',
    'weight_kg',
    'adherence',
    'notes',
    'reply',
    'replied_at',
    'replied_by',
    'created_at',
    'client_request_id',
  ],
  subscription_pauses: ['id', 'subscription_id', 'paused_from', 'resumed_on', 'reason', 'paused_by', 'resumed_by', 'created_at'],
  follow_up_reminders: ['id', 'client_id', 'kind', 'due_date', 'outbox_id', 'created_at'],
  job_queue: ['id', 'name', 'data', 'singleton_key', 'state', 'attempts', 'run_after', 'locked_until', 'last_error', 'created_at'],
  conversations: [
    'id',
    'client_id',
    'primary_dietitian_id',
    'last_seq',
    'last_message_at',
    'last_sender_role',
    'auto_replied_until',
    'client_notified_at',
    'client_notified_seq',
    'team_notified_at',
    'team_notified_seq',
    'created_at',
  ],
  messages: ['id', 'conversation_id', 'seq', 'sender_id', 'sender_role', 'client_message_id', 'text', 'sent_at', 'search'],
  conversation_reads: ['conversation_id', 'user_id', 'last_read_seq', 'read_at'],
  message_attachments: ['message_id', 'attachment_id', 'position'],
  meal_entries: [
    'id',
    'client_id',
    'created_by',
    'client_entry_id',
    'meal',
    'eaten_at',
    'eaten_on',
    'description',
    'hunger_before',
    'fullness_after',
    'note',
    'mark',
    'marked_by',
    'marked_at',
    'created_at',
    'updated_at',
  ],
  meal_entry_attachments: ['entry_id', 'attachment_id', 'position'],
  meal_comments: ['id', 'entry_id', 'author_id', 'author_role', 'client_comment_id', 'text', 'created_at'],
  water_intake: ['client_id', 'day', 'glasses', 'updated_at'],
  saved_replies: ['id', 'title', 'body', 'created_by', 'created_at', 'updated_at'],
  message_settings: ['id', 'office_days', 'office_opens', 'office_closes', 'updated_by', 'updated_at'],
  attachments: [
    'id',
    'uploader_id',
    'name',
    'content_type',
    'received_bytes',
    'size',
    'link_key',
    'has_thumbnail',
    'ready',
    'client_id',
    'used_for',
    'claimed_at',
    'created_at',
  ],
  billing_settings: [
    'id',
    'legal_name',
    'address',
    'state_code',
    'gstin',
    'sac_code',
    'tax_rate_bp',
    'upi_vpa',
    'payee_name',
    'invoice_prefix',
    'updated_at',
  ],
  invoice_counters: ['financial_year', 'last_number'],
  invoices: [
    'id',
    'number',
    'financial_year',
    'seq',
    'client_id',
    'issued_by',
    'client_request_id',
    'status',
    'issued_on',
    'due_on',
    'seller',
    'client_name',
    'client_state_code',
    'plan_type',
    'plan_id',
    'lines',
    'subtotal_paise',
    'discount_paise',
    'taxable_paise',
    'tax_rate_bp',
    'cgst_paise',
    'sgst_paise',
    'igst_paise',
    'round_off_paise',
    'total_paise',
    'notes',
    'paid_at',
    'paid_via',
    'payment_reference',
    'subscription_id',
    'razorpay_link_id',
    'razorpay_link_url',
    'voided_at',
    'void_reason',
    'created_at',
    'updated_at',
  ],
  payment_claims: ['id', 'invoice_id', 'utr', 'claimed_by', 'state', 'reason', 'decided_by', 'decided_at', 'created_at'],
  offline_payments: [
    'id',
    'invoice_id',
    'method',
    'amount_paise',
    'reference',
    'received_on',
    'recorded_by',
    'client_request_id',
    'created_at',
  ],
  gateway_events: ['event_id', 'provider', 'kind', 'invoice_id', 'received_at', 'payment_id', 'outcome', 'detail'],
  push_subscriptions: ['id', 'user_id', 'family_id', 'endpoint', 'p256dh', 'auth', 'service_host', 'created_at', 'registered_at'],
  push_vapid_keys: ['id', 'public_key', 'private_key_sealed', 'created_at'],
  notification_preferences: ['user_id', 'category', 'email', 'push', 'updated_at'],
  push_deliveries: [
    'id',
    'notification_key',
    'subscription_id',
    'service_host',
    'payload',
    'ttl_seconds',
    'urgency',
    'state',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_error',
    'created_at',
    'settled_at',
  ],
  availability_settings: ['dietitian_id', 'consultation_minutes', 'follow_up_minutes', 'buffer_minutes', 'bookable', 'updated_at'],
  availability_weekly: ['id', 'dietitian_id', 'weekday', 'kind', 'start_minute', 'end_minute'],
  availability_exceptions: ['id', 'dietitian_id', 'day', 'kind', 'start_minute', 'end_minute', 'note'],
  appointments: [
    'id',
    'client_id',
    'consultation_id',
    'dietitian_id',
    'kind',
    'starts_at',
    'ends_at',
    'busy_until',
    'status',
    'booked_by',
    'client_request_id',
    'timed_at',
    'cancelled_by',
    'cancel_reason',
    'cancelled_at',
    'created_at',
    'updated_at',
  ],
  appointment_reminders: ['appointment_id', 'which', 'starts_at', 'sent_at'],
  consultation_holds: [
    'id',
    'consultation_id',
    'dietitian_id',
    'starts_at',
    'ends_at',
    'busy_until',
    'expires_at',
    'requester_ip',
    'status',
    'appointment_id',
    'settled_at',
    'created_at',
  ],
  intakes: ['client_id', 'answers', 'completed_at', 'updated_by', 'updated_at'],
  goals: [
    'id',
    'client_id',
    'target_weight_kg',
    'target_date',
    'waist_cm',
    'water_glasses',
    'steps',
    'habit',
    'set_by',
    'client_request_id',
    'created_at',
  ],
  body_measurements: [
    'id',
    'client_id',
    'date',
    'waist_cm',
    'hip_cm',
    'chest_cm',
    'arm_cm',
    'thigh_cm',
    'recorded_by',
    'client_request_id',
    'created_at',
  ],
  progress_photos: ['id', 'client_id', 'date', 'pose', 'attachment_id', 'uploaded_by', 'client_request_id', 'created_at'],
  documents: ['id', 'client_id', 'kind', 'title', 'date', 'attachment_id', 'uploaded_by', 'client_request_id', 'created_at'],
  call_seats: ['appointment_id', 'side', 'user_id', 'peer_id', 'claim_id', 'seen_at', 'claimed_at'],
  session_notes: ['id', 'appointment_id', 'client_id', 'author_id', 'body', 'created_at', 'updated_at'],
  call_settings: ['dietitian_id', 'fallback_url', 'updated_at'],
  call_guest_links: ['appointment_id', 'version', 'revoked_at', 'revoked_by', 'created_at', 'updated_at'],
  foods: [
    'id',
    'kind',
    'name',
    'name_hi',
    'food_group',
    'source',
    'source_ref',
    'per_100g',
    'cooked_grams',
    'serving_grams',
    'created_by',
    'created_at',
    'updated_at',
    'archived_at',
  ],
  food_names: ['food_id', 'name', 'lang', 'is_alias'],
  food_portions: ['food_id', 'unit', 'grams'],
  recipe_ingredients: ['recipe_id', 'position', 'food_id', 'grams'],
  food_uses: ['user_id', 'food_id', 'uses', 'last_used_at'],
  nutrition_targets: ['client_id', 'targets', 'basis', 'show_numbers', 'set_by', 'updated_at'],
  meal_entry_items: ['entry_id', 'position', 'food_id', 'quantity', 'unit', 'grams', 'added_by', 'created_at'],
} as const satisfies { [Table in keyof Database]: readonly (keyof Database[Table] & string)[] };

/** Columns of the interface missing from the list above; the assignment below fails to type-check unless there are none. */
type Unlisted = { [Table in keyof Database]: Exclude<keyof Database[Table], (typeof expectedColumns)[Table][number]> }[keyof Database];
const everyInterfaceColumnIsListed: [Unlisted] extends [never] ? true : { unlistedColumns: Unlisted } = true;

/** Kysely's own bookkeeping, not part of the Database interface. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ empty: true });
  await migrateToLatest(handle.db);
});
afterAll(() => handle?.close());

async function actualColumns(): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(handle.db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) {
    if (MIGRATOR_TABLES.has(r.table_name)) continue;
    byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  }
  return byTable;
}

describe('the Database interface matches the migrated database', () => {
  it('lists every interface column (checked by tsc)', () => {
    expect(everyInterfaceColumnIsListed).toBe(true);
  });

  it('has exactly the tables of the interface', async () => {
    const actual = [...(await actualColumns()).keys()].sort();
    expect(actual).toEqual(Object.keys(expectedColumns).sort());
  });

  it.each(Object.entries(expectedColumns))('table %s has exactly the interface’s columns', async (table, columns) => {
    const actual = (await actualColumns()).get(table) ?? [];
    expect([...actual].sort()).toEqual([...columns].sort());
  });
});

describe('migrations', () => {
  it('lists every file of migrations/ in migrations/index.ts, in order', () => {
    const dir = path.resolve('migrations');
    const files = readdirSync(dir)
      .filter((f) => /\.(ts|js)$/.test(f) && !/^index\.(ts|js)$/.test(f) && !f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.(ts|js)$/, ''))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
  });

  it('names each migration with the date-prefixed convention', () => {
    for (const name of Object.keys(migrations)) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}_[a-z0-9_-]+$/);
  });

  it('is a no-op when run again', async () => {
    expect(await migrateToLatest(handle.db)).toEqual([]);
  });

  it('still runs a migration that landed after a later-named one had already run', async () => {
    const names = Object.keys(migrations);
    const lateComer = names[names.length - 2]!;
    const other = await createTestDatabase({ empty: true });
    try {
      const without = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== lateComer));
      const early = new Migrator({ db: other.db, provider: { getMigrations: async () => without } });
      expect((await early.migrateToLatest()).error).toBeUndefined();
      expect(await migrateToLatest(other.db)).toEqual([lateComer]);
    } finally {
      await other.close();
    }
  });
});
