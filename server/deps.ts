import type { Kysely } from 'kysely';
import type { LiveSessions } from './auth/live-sessions.js';
import type { ClockSkewCheck } from './db/clock-skew.js';
import type { Database, DbHandle } from './db/index.js';
import type { Config } from './env.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './observability/metrics.js';
import type { JobQueue } from './jobs/queue.js';
import type { FeedPageCache } from './feed/page-cache.js';
import type { FeedBus, FeedBusMessage } from './feed/bus.js';
import type { CareLoopNote, FollowUpBus } from './check-in/bus.js';
import type { LiveChannel } from './realtime/live-channel.js';
import type { MessageNote, MessagesBus } from './messages/events.js';
import type { InvoiceNote, InvoicesBus } from './payments/events.js';
import type { JournalBus } from './journal/events.js';
import type { JournalSignal } from './journal/schema.js';
import type { CallNote, CallsBus } from './calls/events.js';
import type { AppointmentNote, AppointmentsBus } from './appointments/events.js';
import type { FileStorage } from './storage/index.js';
import type { VapidKeys } from './push/vapid.js';

/**
 * Everything a request may need, built once at start (server/main.ts) or per
 * test (tests/helpers). Procedures reach services through ctx.deps.
 */
export interface AppDeps {
  config: Config;
  /** The resolved secret: APP_SECRET, or the one kept in DATA_DIR for the embedded database. */
  secret: string;
  db: Kysely<Database>;
  dbHandle: DbHandle;
  logger: Logger;
  mailer: Mailer;
  feedBus: FeedBus;
  /** The live feed's channel (realtime/live-channel.ts): feed.events subscribers, fed by feedBus. */
  feedLive: LiveChannel<FeedBusMessage>;
  /** Feed pages kept between changes (evicted by every feed write and event). */
  feedPages: FeedPageCache;
  /** Prometheus series (when METRICS_TOKEN is set) and the always-on live counts. */
  metrics: Metrics;
  /** Check-ins, replies, pauses: live to the follow-up screens on every instance. */
  followUpBus: FollowUpBus;
  /** The care loop's channel (check-in.events, admin.followUps.events, admin.overview.events, careRecord.events), fed by followUpBus and the other buses (check-in/care-loop.ts). */
  followUpLive: LiveChannel<CareLoopNote>;
  /** Messages, receipts and typing (the `messages` NOTIFY), and this instance's typing throttle. */
  messagesBus: MessagesBus;
  /** The conversations' channel (messages.events, admin.messages.inboxEvents), fed by messagesBus. */
  messagesLive: LiveChannel<MessageNote>;
  /** Invoice changes (the `invoices` NOTIFY, ids only), on every instance. */
  invoicesBus: InvoicesBus;
  /** The invoices' channel (invoice.events: the client's payments page and badge, the console's Payments), fed by invoicesBus. */
  invoicesLive: LiveChannel<InvoiceNote>;
  /** The meal journal's changes (the `journal` NOTIFY) and its channel (journal.events). */
  journalBus: JournalBus;
  journalLive: LiveChannel<JournalSignal>;
  /** Call signals and places (the `call_signals` NOTIFY, decision 120): never stored. */
  callsBus: CallsBus;
  /** The calls' channel (calls.join), fed by callsBus. */
  callsLive: LiveChannel<CallNote>;
  /** Appointment changes and saved hours (the `appointments` NOTIFY, ids only) and their channel (appointments.events). */
  appointmentsBus: AppointmentsBus;
  appointmentsLive: LiveChannel<AppointmentNote>;
  /** Background jobs (the reminders): pg-boss on Postgres, a job table on the embedded database. */
  jobs: JobQueue;
  /** Now, for the rules that depend on the day (check-ins due, reminders); tests pass a fixed clock. */
  clock: () => Date;
  /** The one session resolver (cached, evicted on every instance by NOTIFY): HTTP, REST and WebSocket calls all use it. */
  sessions: LiveSessions;
  /** Compares this process's clock with the database's and warns when they differ (at start and on readiness checks). */
  clockSkew: ClockSkewCheck;
  /** Uploaded files (attachments): a folder of DATA_DIR, or an S3-compatible bucket (decision 112). */
  storage: FileStorage;
  /** The VAPID keys push is sent with (VAPID_* or generated once into DATA_DIR; decision 115). */
  vapid: VapidKeys;
}
