import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database as the queries see it. Written once by hand and checked
 * against the migrated database by tests/integration/schema.test.ts.
 */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** 'YYYY-MM-DD' on read and write (type parsers keep dates as text). */
type DateText = string;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  first_name: string;
  last_name: ColumnType<string, string | undefined, string>;
  role: number;
  password_hash: string | null;
  height_m: number | null;
  weight_kg: number | null;
  phone: string | null;
  condition_notes: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  /** When the sign-in this session continues began (the absolute lifetime counts from it). */
  family_started_at: Timestamp;
  token_hash: string;
  refresh_hash: string;
  expires_at: Timestamp;
  refresh_expires_at: Timestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** The browser that signed in (its User-Agent), kept across refreshes. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  bucket: string;
  at: CreatedAt;
}

export interface AuthKeysTable {
  kid: string;
  public_jwk: ColumnType<JsonWebKey, string, string>;
  private_key_enc: string;
  created_at: CreatedAt;
  retired_at: NullableTimestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: ColumnType<string | null, string | null | undefined, string | null>;
  status: ColumnType<'queued' | 'sent' | 'failed' | 'logged', 'queued' | 'sent' | 'failed' | 'logged' | undefined>;
  error: string | null;
  created_at: CreatedAt;
  sent_at: NullableTimestamp;
  /** Who is delivering it (a random token) and until when; a lease run out may be taken over. */
  claim_token: string | null;
  claimed_until: NullableTimestamp;
  /** Files sent with the mail (JSON: filename, contentType, content), e.g. an appointment's .ics. */
  attachments: ColumnType<{ filename: string; contentType: string; content: string }[] | null, string | null | undefined, string | null>;
}

export interface CountriesTable {
  id: number;
  alpha2: string;
  name: string;
}

export interface SupportRequestsTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  email: string;
  message: string;
  status: ColumnType<'open' | 'answered', 'open' | 'answered' | undefined>;
  created_at: CreatedAt;
  reply: string | null;
  answered_at: NullableTimestamp;
  answered_by: number | null;
}

export type ConsultationStatus = 'new' | 'contacted' | 'converted' | 'closed';
export interface ConsultationsTable {
  id: Generated<number>;
  name: string;
  email: string;
  gender: number;
  age: number;
  height: string;
  weight: number;
  state: string;
  contact: string;
  country_id: number;
  is_medical_condition: boolean;
  status: ColumnType<ConsultationStatus, ConsultationStatus | undefined>;
  notes: string | null;
  created_at: CreatedAt;
  client_id: number | null;
  updated_at: Timestamp;
  /** The visitor's IANA time zone as their browser gave it; null: India time. */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface FeedPostsTable {
  id: Generated<number>;
  author_id: number;
  description: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Kept exact by a trigger on feed_likes, in the same transaction as the like. */
  like_count: ColumnType<number, never, never>;
}

export interface FeedLikesTable {
  post_id: number;
  user_id: number;
  created_at: CreatedAt;
}

export type FeedEventKind = 'post.created' | 'post.updated' | 'post.deleted' | 'like.changed';
export interface FeedEventsTable {
  id: Generated<number>;
  kind: FeedEventKind;
  post_id: number;
  actor_id: number | null;
  /** like.changed: the post's count and the actor's like as published (null for other kinds and older rows). */
  like_count: number | null;
  liked: boolean | null;
  created_at: CreatedAt;
}

export interface RatingsTable {
  id: Generated<number>;
  user_id: number;
  half_stars: number;
  comment: ColumnType<string, string | undefined, string>;
  is_published: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

export interface DietPlansTable {
  id: Generated<number>;
  client_id: number;
  title: string;
  from_date: DateText;
  to_date: DateText;
  pdf_data: Uint8Array;
  pdf_bytes: number;
  created_by: number | null;
  created_at: CreatedAt;
  version: ColumnType<number, number | undefined, number>;
  source: ColumnType<DietPlanSource, DietPlanSource | undefined, DietPlanSource>;
  /** The composed plan (days × meals) when source is 'composed'. */
  content: ColumnType<unknown | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export type DietPlanSource = 'upload' | 'composed';
/** Earlier versions of a diet plan, archived when it is edited. */
export interface DietPlanVersionsTable {
  plan_id: number;
  version: number;
  title: string;
  from_date: DateText;
  to_date: DateText;
  source: DietPlanSource;
  content: ColumnType<unknown | null, string | null | undefined, string | null>;
  pdf_data: Uint8Array;
  pdf_bytes: number;
  created_by: number | null;
  created_at: ColumnType<Date, Date | string, never>;
  superseded_at: CreatedAt;
}

/** Who changed what in the dietitian console, and when. */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_email: string;
  action: string;
  entity: string;
  entity_id: number | null;
  summary: string;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

export interface WeightsTable {
  id: Generated<number>;
  client_id: number;
  weight_kg: number;
  date: DateText;
  created_at: CreatedAt;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  client_id: number;
  plan_type: 'WL' | 'WG' | 'DP' | 'LP';
  plan_id: string;
  plan_name: string;
  list_price: number;
  amount_received: number;
  start_date: DateText;
  end_date: DateText;
  cancelled_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface VisitsTable {
  id: Generated<number>;
  day: DateText;
  visitor_hash: string;
  created_at: CreatedAt;
}

/** A client's check-in: the weight also goes to weights, the reply comes from a dietitian. */
export interface CheckInsTable {
  id: Generated<number>;
  client_id: number;
  date: DateText;
  weight_kg: number;
  adherence: number;
  notes: string | null;
  reply: string | null;
  replied_at: NullableTimestamp;
  replied_by: number | null;
  created_at: CreatedAt;
  /** The client's own key for this check-in (unique per client): a repeated send finds the first. */
  client_request_id: string | null;
}

/** A pause of a subscription; open while resumed_on is null. */
export interface SubscriptionPausesTable {
  id: Generated<number>;
  subscription_id: number;
  paused_from: DateText;
  resumed_on: DateText | null;
  reason: string | null;
  paused_by: number | null;
  resumed_by: number | null;
  created_at: CreatedAt;
}

export type FollowUpReminderKind = 'check_in_due' | 'check_in_overdue' | 'renewal';
/** Reminders already sent: unique per client, kind and due date. */
export interface FollowUpRemindersTable {
  id: Generated<number>;
  client_id: number;
  kind: FollowUpReminderKind;
  due_date: DateText;
  outbox_id: number | null;
  created_at: CreatedAt;
}

export type JobState = 'created' | 'active' | 'failed';
/** The embedded database's job queue (pg-boss runs on real Postgres). */
export interface JobQueueTable {
  id: Generated<number>;
  name: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  singleton_key: string | null;
  state: ColumnType<JobState, JobState | undefined, JobState>;
  attempts: ColumnType<number, number | undefined, number>;
  run_after: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: CreatedAt;
}

export type MessageSenderRole = 'client' | 'dietitian' | 'system';

/** One per client: `last_seq` is the counter every message's seq is taken from, under the row's lock. */
export interface ConversationsTable {
  id: Generated<number>;
  client_id: number;
  primary_dietitian_id: number | null;
  last_seq: ColumnType<number, number | undefined, number>;
  last_message_at: NullableTimestamp;
  last_sender_role: MessageSenderRole | null;
  /** The end of the closed period whose automatic reply was sent (one per closed period). */
  auto_replied_until: NullableTimestamp;
  client_notified_at: NullableTimestamp;
  client_notified_seq: ColumnType<number, number | undefined, number>;
  team_notified_at: NullableTimestamp;
  team_notified_seq: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: number;
  seq: number;
  sender_id: number | null;
  sender_role: MessageSenderRole;
  /** The sender's own key (unique per sender): a repeated send finds the first. Null for automatic replies. */
  client_message_id: string | null;
  text: string;
  sent_at: CreatedAt;
  /** to_tsvector('simple', text), generated by the database. */
  search: ColumnType<string, never, never>;
}

/** How far each participant (the client, each dietitian) has read a conversation. */
export interface ConversationReadsTable {
  conversation_id: number;
  user_id: number;
  last_read_seq: number;
  read_at: Timestamp;
}

/** The files a message carries, in the order attached. */
export interface MessageAttachmentsTable {
  message_id: number;
  attachment_id: string;
  position: number;
}

export interface SavedRepliesTable {
  id: Generated<number>;
  title: string;
  body: string;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** One row (id 1): the console's office hours in India time; null days mean always open. */
export interface MessageSettingsTable {
  id: number;
  /** ISO weekdays the office is open, e.g. '1,2,3,4,5' (Monday to Friday). */
  office_days: string | null;
  office_opens: string | null;
  office_closes: string | null;
  updated_by: number | null;
  updated_at: Timestamp;
}

export type AttachmentUse = 'message' | 'meal' | 'document' | 'progress';
/** An uploaded file (decision 112): its bytes are in storage under keys made from the id. */
export interface AttachmentsTable {
  id: string;
  uploader_id: number;
  /** The name it was uploaded with (checked text; its extension agrees with the bytes). */
  name: string;
  /** The type decided from the bytes: image/jpeg, image/png, image/webp or application/pdf. */
  content_type: string;
  /** Bytes received (what the daily upload limit counts). */
  received_bytes: number;
  /** Bytes stored (the re-encoded image, or the PDF as received). */
  size: ColumnType<number, number | undefined, number>;
  /** Signs the file's short-lived links (random per file; never sent to anyone). */
  link_key: string;
  has_thumbnail: ColumnType<boolean, boolean | undefined, boolean>;
  /** False until its bytes are stored: nobody sees or claims it before. */
  ready: ColumnType<boolean, boolean | undefined, boolean>;
  /** The client whose record holds it, once claimed. */
  client_id: number | null;
  used_for: AttachmentUse | null;
  claimed_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** The clinic's billing details: one row (id 1), set in the console's Payments page. */
export interface BillingSettingsTable {
  id: number;
  legal_name: string;
  address: string;
  /** GST state code, e.g. '27' (Maharashtra). */
  state_code: string;
  /** Null: not registered for GST (no tax lines). */
  gstin: string | null;
  sac_code: string;
  /** Basis points: 1800 = 18%. */
  tax_rate_bp: number;
  upi_vpa: string;
  payee_name: string;
  invoice_prefix: string;
  updated_at: Timestamp;
}

export interface InvoiceCountersTable {
  financial_year: string;
  last_number: number;
}

export type InvoiceStatus = 'issued' | 'claimed' | 'paid' | 'void';
export type PaidVia = 'upi' | 'razorpay' | 'cash' | 'bank_transfer';
type Json = ColumnType<unknown, string, string>;
/** Money in paise: bigint columns read as numbers (server/db/connect.ts). */
export interface InvoicesTable {
  id: Generated<number>;
  number: string;
  financial_year: string;
  seq: number;
  client_id: number;
  issued_by: number | null;
  client_request_id: string | null;
  status: InvoiceStatus;
  issued_on: DateText;
  due_on: DateText;
  /** The clinic's billing details as they were when issued. */
  seller: Json;
  client_name: string;
  client_state_code: string | null;
  plan_type: 'WL' | 'WG' | 'DP' | 'LP' | null;
  plan_id: string | null;
  lines: Json;
  subtotal_paise: number;
  discount_paise: number;
  taxable_paise: number;
  tax_rate_bp: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  round_off_paise: number;
  total_paise: number;
  notes: string | null;
  paid_at: NullableTimestamp;
  paid_via: PaidVia | null;
  payment_reference: string | null;
  subscription_id: number | null;
  razorpay_link_id: string | null;
  razorpay_link_url: string | null;
  voided_at: NullableTimestamp;
  void_reason: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface PaymentClaimsTable {
  id: Generated<number>;
  invoice_id: number;
  utr: string;
  claimed_by: number | null;
  state: 'pending' | 'confirmed' | 'rejected';
  reason: string | null;
  decided_by: number | null;
  decided_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** Cash or a bank transfer, recorded by a dietitian against one invoice (it pays it whole). */
export interface OfflinePaymentsTable {
  id: Generated<number>;
  invoice_id: number;
  method: 'cash' | 'bank_transfer';
  amount_paise: number;
  reference: string | null;
  received_on: DateText;
  recorded_by: number | null;
  client_request_id: string;
  created_at: CreatedAt;
}

/* The food library (server/nutrition). per_100g and targets are keyed by NutrientKey. */
export interface FoodsTable {
  id: Generated<number>;
  kind: ColumnType<'food' | 'recipe', 'food' | 'recipe' | undefined, 'food' | 'recipe'>;
  name: string;
  name_hi: string | null;
  food_group: string;
  source: 'ifct2017' | 'csv' | 'clinic';
  source_ref: string | null;
  per_100g: ColumnType<Record<string, number>, string, string>;
  cooked_grams: number | null;
  serving_grams: number | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface FoodNamesTable {
  food_id: number;
  name: string;
  lang: 'en' | 'hi';
  is_alias: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface FoodPortionsTable {
  food_id: number;
  unit: string;
  grams: number;
}

export interface RecipeIngredientsTable {
  recipe_id: number;
  position: number;
  food_id: number;
  grams: number;
}

export interface FoodUsesTable {
  user_id: number;
  food_id: number;
  uses: ColumnType<number, number | undefined, number>;
  last_used_at: Timestamp;
}

export interface NutritionTargetsTable {
  client_id: number;
  targets: ColumnType<Record<string, number>, string, string>;
  basis: ColumnType<unknown, string | null | undefined, string | null>;
  show_numbers: ColumnType<boolean, boolean | undefined, boolean>;
  set_by: number | null;
  updated_at: Timestamp;
}

export interface MealEntryItemsTable {
  entry_id: number;
  position: number;
  food_id: number;
  quantity: number;
  unit: string;
  grams: number;
  added_by: number | null;
  created_at: CreatedAt;
}

export type GatewayOutcome = 'paid' | 'already_settled' | 'ignored';

export interface GatewayEventsTable {
  event_id: string;
  provider: string;
  kind: string;
  invoice_id: number | null;
  received_at: CreatedAt;
  /** The gateway's payment (pay_…) the event named, if any. */
  payment_id: string | null;
  /** 'paid': this event paid its invoice (one per payment); 'already_settled': paid or void before; 'ignored': nothing to do. */
  outcome: ColumnType<GatewayOutcome, GatewayOutcome | undefined, GatewayOutcome>;
  /** Why it was ignored, for whoever reads the table (never personal data). */
  detail: string | null;
}

/** A browser that accepted push, tied to the sign-in (session family) that registered it (decision 115). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The push service's host, from the endpoint (a generated column: the console's health card groups by it). */
  service_host: GeneratedAlways<string>;
  created_at: CreatedAt;
  /** When the browser last registered it: the oldest goes first when a sign-in or a person has too many. */
  registered_at: Timestamp;
}

/** The server's VAPID key pair when the operator sets none: one row, made at the first start (server/push/vapid.ts). */
export interface PushVapidKeysTable {
  id: ColumnType<1, 1 | undefined, never>;
  /** The uncompressed P-256 public key, URL-safe base64 (87 characters): what browsers subscribe with. */
  public_key: string;
  /** The private key sealed with a key derived from APP_SECRET (server/auth/key-crypto.ts), never the key itself. */
  private_key_sealed: string;
  created_at: CreatedAt;
}

/** A person's choice for one category; no row means e-mail and push both on. */
export interface NotificationPreferencesTable {
  user_id: number;
  category: string;
  email: boolean;
  push: boolean;
  updated_at: Timestamp;
}

export type PushDeliveryState = 'pending' | 'sending' | 'sent' | 'gone' | 'failed' | 'dropped';
export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';
/** What a service worker shows: the event and where a tap leads, never health details. */
export type PushPayload = { title: string; body: string; url: string; tag: string };

/** One notification to one device, once (unique on notification_key and subscription_id). */
export interface PushDeliveriesTable {
  id: Generated<number>;
  notification_key: string;
  subscription_id: number | null;
  service_host: string;
  payload: ColumnType<PushPayload, string, string>;
  ttl_seconds: number;
  urgency: PushUrgency;
  state: ColumnType<PushDeliveryState, PushDeliveryState | undefined, PushDeliveryState>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: CreatedAt;
  settled_at: NullableTimestamp;
}

export type AppointmentKind = 'consultation' | 'follow_up';
export type AppointmentStatus = 'booked' | 'cancelled' | 'done' | 'no_show';

/** A dietitian's session lengths and buffer; absent row = the defaults. */
export interface AvailabilitySettingsTable {
  dietitian_id: number;
  consultation_minutes: ColumnType<number, number | undefined, number>;
  follow_up_minutes: ColumnType<number, number | undefined, number>;
  buffer_minutes: ColumnType<number, number | undefined, number>;
  bookable: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Timestamp;
}

/** Weekly hours and breaks in India time; weekday is ISO (1 = Monday), minutes from midnight. */
export interface AvailabilityWeeklyTable {
  id: Generated<number>;
  dietitian_id: number;
  weekday: number;
  kind: 'hours' | 'break';
  start_minute: number;
  end_minute: number;
}

/** One India-time day's change: 'off' closes a window (the whole day without minutes), 'open' adds one. */
export interface AvailabilityExceptionsTable {
  id: Generated<number>;
  dietitian_id: number;
  day: DateText;
  kind: 'off' | 'open';
  start_minute: number | null;
  end_minute: number | null;
  note: string | null;
}

/**
 * A booked session. `consultation_id` is a visitor's free consultation (client_id joins when the console
 * converts it); [starts_at, busy_until) never overlaps another live appointment of the same dietitian
 * (exclusion constraint appointments_no_overlap).
 */
export interface AppointmentsTable {
  id: Generated<number>;
  client_id: number | null;
  consultation_id: number | null;
  dietitian_id: number;
  kind: AppointmentKind;
  starts_at: Timestamp;
  ends_at: Timestamp;
  busy_until: Timestamp;
  status: ColumnType<AppointmentStatus, AppointmentStatus | undefined, AppointmentStatus>;
  booked_by: number | null;
  client_request_id: string | null;
  /** When the current time was set (booked or moved). */
  timed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  cancelled_by: number | null;
  cancel_reason: string | null;
  cancelled_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * A visitor's chosen consultation time, held until they confirm it or a dietitian accepts the request
 * (then appointment_id is the booked appointment), or until expires_at; released when a client booked
 * over it or the request was closed. Only a live hold ('held', not expired) keeps a time from visitors.
 */
export type ConsultationHoldStatus = 'held' | 'confirmed' | 'released';
export interface ConsultationHoldsTable {
  id: Generated<number>;
  consultation_id: number;
  dietitian_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  busy_until: Timestamp;
  expires_at: Timestamp;
  requester_ip: string;
  status: ColumnType<ConsultationHoldStatus, ConsultationHoldStatus | undefined, ConsultationHoldStatus>;
  appointment_id: number | null;
  settled_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** A reminder sent for one start time of one appointment (exactly once). */
export interface AppointmentRemindersTable {
  appointment_id: number;
  which: '24h' | '1h';
  starts_at: Date | string;
  sent_at: CreatedAt;
}

/** The meal journal (decision 118): what a client ate, when; `eaten_on` is that day in the client's zone. */
export type MealKind = 'early-morning' | 'breakfast' | 'mid-morning' | 'lunch' | 'evening-snack' | 'dinner' | 'other';
export type MealMark = 'looks-good' | 'lets-talk';
export interface MealEntriesTable {
  id: Generated<number>;
  client_id: number;
  created_by: number | null;
  client_entry_id: string;
  meal: MealKind;
  eaten_at: Timestamp;
  eaten_on: DateText;
  description: string;
  hunger_before: number | null;
  fullness_after: number | null;
  note: string | null;
  mark: MealMark | null;
  marked_by: number | null;
  marked_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** The photos of a meal entry, in the order attached. */
export interface MealEntryAttachmentsTable {
  entry_id: number;
  attachment_id: string;
  position: number;
}

/** Comments under a meal entry, from the client or a dietitian. */
export interface MealCommentsTable {
  id: Generated<number>;
  entry_id: number;
  author_id: number | null;
  author_role: 'client' | 'dietitian';
  client_comment_id: string | null;
  text: string;
  created_at: CreatedAt;
}

/** Glasses of water a client drank on a day. */
export interface WaterIntakeTable {
  client_id: number;
  day: DateText;
  glasses: number;
  updated_at: Timestamp;
}

/** A client's intake questionnaire: the answers as JSON, kept as the client types them. */
export interface IntakesTable {
  client_id: number;
  answers: ColumnType<unknown, string | undefined, string>;
  completed_at: NullableTimestamp;
  updated_by: number | null;
  updated_at: Timestamp;
}

/** Goals set together; every setting is kept and the newest is the current one. */
export interface GoalsTable {
  id: Generated<number>;
  client_id: number;
  target_weight_kg: number | null;
  target_date: DateText | null;
  waist_cm: number | null;
  water_glasses: number | null;
  steps: number | null;
  habit: string | null;
  set_by: number | null;
  client_request_id: string;
  created_at: CreatedAt;
}

export interface BodyMeasurementsTable {
  id: Generated<number>;
  client_id: number;
  date: DateText;
  waist_cm: number | null;
  hip_cm: number | null;
  chest_cm: number | null;
  arm_cm: number | null;
  thigh_cm: number | null;
  recorded_by: number | null;
  client_request_id: string;
  created_at: CreatedAt;
}

export type ProgressPose = 'front' | 'side';
export interface ProgressPhotosTable {
  id: Generated<number>;
  client_id: number;
  date: DateText;
  pose: ProgressPose;
  attachment_id: string;
  uploaded_by: number | null;
  client_request_id: string;
  created_at: CreatedAt;
}

export type DocumentKind = 'lab-report' | 'prescription' | 'other';
export interface DocumentsTable {
  id: Generated<number>;
  client_id: number;
  kind: DocumentKind;
  title: string;
  date: DateText;
  attachment_id: string;
  uploaded_by: number | null;
  client_request_id: string;
  created_at: CreatedAt;
}

/** A call's place held by one page (decision 120): while its signalling subscription lives. */
export interface CallSeatsTable {
  appointment_id: number;
  side: 'client' | 'team';
  /** null: a visitor in through a guest link (the client's place only). */
  user_id: number | null;
  peer_id: string;
  claim_id: string;
  seen_at: Timestamp;
  claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The version of an appointment's guest call links: a link signed for an older version, or revoked, is refused. */
export interface CallGuestLinksTable {
  appointment_id: number;
  version: ColumnType<number, number | undefined, number>;
  revoked_at: NullableTimestamp;
  revoked_by: number | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The dietitian's private notes of one session, on the client's record. */
export interface SessionNotesTable {
  id: Generated<number>;
  appointment_id: number;
  client_id: number;
  author_id: number | null;
  body: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Each dietitian's fallback meeting link (https only). */
export interface CallSettingsTable {
  dietitian_id: number;
  fallback_url: string | null;
  updated_at: Timestamp;
}

export interface Database {
  meal_entries: MealEntriesTable;
  meal_entry_attachments: MealEntryAttachmentsTable;
  meal_comments: MealCommentsTable;
  water_intake: WaterIntakeTable;
  intakes: IntakesTable;
  goals: GoalsTable;
  body_measurements: BodyMeasurementsTable;
  progress_photos: ProgressPhotosTable;
  documents: DocumentsTable;
  message_attachments: MessageAttachmentsTable;
  attachments: AttachmentsTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  login_attempts: LoginAttemptsTable;
  auth_keys: AuthKeysTable;
  outbox: OutboxTable;
  countries: CountriesTable;
  support_requests: SupportRequestsTable;
  consultations: ConsultationsTable;
  feed_posts: FeedPostsTable;
  feed_likes: FeedLikesTable;
  feed_events: FeedEventsTable;
  ratings: RatingsTable;
  diet_plans: DietPlansTable;
  weights: WeightsTable;
  subscriptions: SubscriptionsTable;
  visits: VisitsTable;
  diet_plan_versions: DietPlanVersionsTable;
  audit_log: AuditLogTable;
  check_ins: CheckInsTable;
  subscription_pauses: SubscriptionPausesTable;
  follow_up_reminders: FollowUpRemindersTable;
  job_queue: JobQueueTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  conversation_reads: ConversationReadsTable;
  saved_replies: SavedRepliesTable;
  message_settings: MessageSettingsTable;
  billing_settings: BillingSettingsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  payment_claims: PaymentClaimsTable;
  offline_payments: OfflinePaymentsTable;
  foods: FoodsTable;
  food_names: FoodNamesTable;
  food_portions: FoodPortionsTable;
  recipe_ingredients: RecipeIngredientsTable;
  food_uses: FoodUsesTable;
  nutrition_targets: NutritionTargetsTable;
  meal_entry_items: MealEntryItemsTable;
  gateway_events: GatewayEventsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_vapid_keys: PushVapidKeysTable;
  notification_preferences: NotificationPreferencesTable;
  push_deliveries: PushDeliveriesTable;
  availability_settings: AvailabilitySettingsTable;
  availability_weekly: AvailabilityWeeklyTable;
  availability_exceptions: AvailabilityExceptionsTable;
  appointments: AppointmentsTable;
  appointment_reminders: AppointmentRemindersTable;
  consultation_holds: ConsultationHoldsTable;
  call_seats: CallSeatsTable;
  session_notes: SessionNotesTable;
  call_settings: CallSettingsTable;
  call_guest_links: CallGuestLinksTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
