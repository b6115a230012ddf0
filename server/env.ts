import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { appVars } from './env/app.js';
import { connectionVars } from './env/connections.js';
import { type EnvDoc, envDocs, type IceServer } from './env/fields.js';
import { integrationVars } from './env/integrations.js';
import { limitVars } from './env/limits.js';

/**
 * The only reader of process.env. Parsed once at start; a bad value stops
 * start-up with a message naming the variable.
 *
 * The variables' schemas live by area in server/env/ (app, limits, integrations, connections), each
 * with its documentation, from which npm run docs:config writes docs/configuration.md and .env.example.
 */

export type { EnvDoc, IceServer } from './env/fields.js';

/** Every variable, grouped by area in server/env/ (their order is the order of docs/configuration.md). */
const envObject = z.object({ ...appVars, ...limitVars, ...integrationVars, ...connectionVars });

const envSchema = envObject.superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && !env.APP_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['APP_SECRET'], message: 'is required when NODE_ENV=production' });
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    const missing = env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other VAPID key (set both or neither)' });
  }
  if (env.NODE_ENV === 'production' && env.PUSH_ALLOW_INSECURE_ENDPOINTS) {
    ctx.addIssue({
      code: 'custom',
      path: ['PUSH_ALLOW_INSECURE_ENDPOINTS'],
      message: 'is for tests only and cannot be on when NODE_ENV=production',
    });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other S3 key (set both or neither)' });
  }
  // Online payments need all three: links are made with the keys, and only a signed webhook marks them paid.
  const razorpay = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const;
  if (razorpay.some((k) => env[k])) {
    for (const k of razorpay.filter((k) => !env[k])) {
      ctx.addIssue({ code: 'custom', path: [k], message: 'is required with the other RAZORPAY_ settings (set all three or none)' });
    }
  }
});

export type Env = z.infer<typeof envSchema>;

/** Every variable the server reads, in the schema's order, with its documentation. */
export function documentedVariables(): Array<{ name: string } & EnvDoc> {
  return Object.entries(envObject.shape).map(([name, schema]) => {
    const doc = envDocs.get(schema);
    if (!doc) throw new Error(`${name} has no documentation in server/env.ts`);
    return { name, ...doc };
  });
}

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * Postgres only: each query text is prepared once per connection and then only bound and run
   * (server/db/prepared-pool.ts). Off for a pooler that cannot hold prepared statements across
   * transactions (PgBouncer in transaction mode before 1.21): every query then goes unnamed.
   */
  namedStatements: boolean;
  dataDir: string;
  /** The built web client (vite build's output) the server serves, when its index.html is there. */
  clientDistDir: string;
  appSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string | undefined;
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** JSON lines, or readable lines (development default, needs the pino-pretty dev dependency). */
  logFormat: 'json' | 'pretty';
  /** Set: /metrics is served to this bearer token and metrics are recorded. Unset: both off. */
  metricsToken: string | undefined;
  /** Set: OpenTelemetry traces are exported there (OTLP over HTTP). Unset: no tracing code is loaded. */
  otlpEndpoint: string | undefined;
  otelServiceName: string;
  /** Continue the trace an incoming traceparent names (only when the proxy in front sets or strips it). */
  otelTrustTraceparent: boolean;
  trustProxy: boolean;
  rateLimits: RateLimits;
  /** How long a WebSocket without a live session stays open (every call on it answers UNAUTHORIZED meanwhile). */
  wsUnauthenticatedCloseMs: number;
  /** Open WebSockets one client address may hold (TRUST_PROXY decides what the address is). */
  wsMaxPerIp: number;
  /** Live subscriptions one WebSocket may hold at once; one more is refused with TOO_MANY_REQUESTS. */
  wsMaxSubscriptions: number;
  /** A connection that has not sent its whole request head by then is closed. */
  headersTimeoutMs: number;
  /** A request whose body has not fully arrived by then is answered 408 and closed. */
  requestTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests may take to finish. */
  shutdownGraceMs: number;
  /** On SIGTERM, how long /readyz answers 503 while still serving, so a proxy stops routing here first. */
  shutdownDrainDelayMs: number;
  /** Where uploaded files go: a folder of DATA_DIR (one instance), or an S3-compatible bucket (any number). */
  storage: StorageConfig;
  /** Bytes one person may upload in 24 hours (attachments), whatever the files' count. */
  uploadDailyBytes: number;
  /** STUN/TURN servers handed to the two sides of a call (decision 120); none: direct connections only. */
  iceServers: IceServer[];
  /** coturn's static-auth-secret: TURN servers without fixed credentials get short-lived ones made from it per call. */
  turnSecret: string | undefined;
  /** Set: invoices carry a Razorpay payment link and POST /api/webhooks/razorpay marks them paid. Unset: UPI claims only. */
  razorpay: RazorpayConfig | undefined;
  /** Web push (decision 115). */
  push: PushConfig;
}

export interface PushConfig {
  /** Both or neither; neither → a pair made at the first start and kept in the database, sealed with APP_SECRET (server/push/vapid.ts). */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** Who the push services may contact: a mailto: or https: URL (default: PUBLIC_URL if https, else MAIL_FROM's address). */
  vapidSubject: string | undefined;
  /** Push-service hosts a subscription's endpoint may name: exact, or `*.domain` for any host under it. */
  allowedHosts: string[];
  /** Tests only: http endpoints on loopback or private addresses (a local push service) are accepted and sent to. */
  allowInsecureEndpoints: boolean;
}

export type RazorpayConfig = { keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      endpoint: string | undefined;
      bucket: string;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

type Window = { max: number; windowMs: number };
/** Attempts allowed per sliding window (server/auth/rate-limit.ts). */
export interface RateLimits {
  signInIp: Window;
  /** Sign-ins for one account that did not succeed (unknown device). */
  signInAccount: Window;
  /** The same, from a device that signed in to the account before (decision 026). */
  signInDevice: Window;
  passwordResetIp: Window;
  passwordResetEmail: Window;
  /** Support requests and consultation bookings, each form counted on its own. */
  formsIp: Window;
  formsEmail: Window;
  visitsIp: Window;
  /** New check-ins per client (repeats of one clientRequestId are not counted). */
  checkIns: Window;
  /** New messages per sender, client or dietitian (repeats of one clientMessageId are not counted). */
  messages: Window;
  /** New goals, measurements, progress photos and documents per client, whoever adds them (repeats are not counted). */
  careRecord: Window;
  /** Saves of one client's intake questionnaire (it saves as the client types). */
  intakeSaves: Window;
  /** Renewals of one sign-in (a browser renews about once an hour, when its session token expires). */
  refreshSignIn: Window;
  refreshIp: Window;
  /** Attachments one person may upload (the bytes per day are UPLOAD_DAILY_MB). */
  uploads: Window;
  /** New meal journal entries and comments per person (a repeated clientEntryId is not counted). */
  journal: Window;
}

/** Where `npm run build` puts the client: dist/ at the repository root. */
const DEFAULT_CLIENT_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset, as shells and compose files often pass them.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    namedStatements: env.DATABASE_NAMED_STATEMENTS,
    dataDir: env.DATA_DIR,
    clientDistDir: path.resolve(env.CLIENT_DIST_DIR ?? DEFAULT_CLIENT_DIST_DIR),
    appSecret: env.APP_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: env.PUBLIC_URL,
    seedDemo: env.SEED_DEMO ?? !env.DATABASE_URL,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'development' ? 'pretty' : 'json'),
    metricsToken: env.METRICS_TOKEN,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelServiceName: env.OTEL_SERVICE_NAME,
    otelTrustTraceparent: env.OTEL_TRUST_TRACEPARENT,
    trustProxy: env.TRUST_PROXY,
    rateLimits: {
      signInIp: env.RATE_LIMIT_SIGN_IN_IP,
      signInAccount: env.RATE_LIMIT_SIGN_IN_ACCOUNT,
      signInDevice: env.RATE_LIMIT_SIGN_IN_DEVICE,
      passwordResetIp: env.RATE_LIMIT_PASSWORD_RESET_IP,
      passwordResetEmail: env.RATE_LIMIT_PASSWORD_RESET_EMAIL,
      formsIp: env.RATE_LIMIT_FORMS_IP,
      formsEmail: env.RATE_LIMIT_FORMS_EMAIL,
      visitsIp: env.RATE_LIMIT_VISITS_IP,
      checkIns: env.RATE_LIMIT_CHECK_INS,
      messages: env.RATE_LIMIT_MESSAGES,
      careRecord: env.RATE_LIMIT_CARE_RECORD,
      intakeSaves: env.RATE_LIMIT_INTAKE_SAVES,
      refreshSignIn: env.RATE_LIMIT_REFRESH_SIGN_IN,
      refreshIp: env.RATE_LIMIT_REFRESH_IP,
      uploads: env.RATE_LIMIT_UPLOADS,
      journal: env.RATE_LIMIT_JOURNAL,
    },
    wsUnauthenticatedCloseMs: env.WS_UNAUTHENTICATED_CLOSE_MS,
    wsMaxPerIp: env.WS_MAX_PER_IP,
    wsMaxSubscriptions: env.WS_MAX_SUBSCRIPTIONS,
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS),
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    shutdownDrainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    storage: env.S3_BUCKET
      ? {
          driver: 's3',
          endpoint: env.S3_ENDPOINT,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : { driver: 'local', dir: path.join(env.DATA_DIR, 'files') },
    uploadDailyBytes: env.UPLOAD_DAILY_MB * 1024 * 1024,
    iceServers: env.ICE_SERVERS,
    turnSecret: env.TURN_SECRET,
    razorpay:
      env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET && env.RAZORPAY_WEBHOOK_SECRET
        ? {
            keyId: env.RAZORPAY_KEY_ID,
            keySecret: env.RAZORPAY_KEY_SECRET,
            webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
            apiUrl: env.RAZORPAY_API_URL,
          }
        : undefined,
    push: {
      vapidPublicKey: env.VAPID_PUBLIC_KEY,
      vapidPrivateKey: env.VAPID_PRIVATE_KEY,
      vapidSubject: env.VAPID_SUBJECT,
      allowedHosts: env.PUSH_ALLOWED_HOSTS,
      allowInsecureEndpoints: env.PUSH_ALLOW_INSECURE_ENDPOINTS,
    },
  };
}
