import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The only reader of process.env. Parsed once at start; a bad value stops
 * start-up with a message naming the variable.
 */
const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of 1/0, true/false, yes/no, on/off',
  })
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const WINDOW_UNITS_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
/** A rate limit written as `<count>/<window>`, e.g. `30/5m` (units s, m, h; at most 24h). */
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const match = /^(\d+)\/(\d+)(s|m|h)$/.exec(text.trim());
      const max = Number(match?.[1]);
      const windowMs = Number(match?.[2]) * WINDOW_UNITS_MS[(match?.[3] ?? 's') as keyof typeof WINDOW_UNITS_MS];
      if (!match || max < 1 || windowMs < 1000 || windowMs > 86_400_000) {
        ctx.addIssue({ code: 'custom', message: 'must be <count>/<window> such as 30/5m (count ≥ 1, window 1s to 24h)' });
        return z.NEVER;
      }
      return { max, windowMs };
    });
/** One STUN/TURN server as RTCPeerConnection takes it; TURN credentials may be fixed here or made from TURN_SECRET. */
export type IceServer = { urls: string[]; username?: string; credential?: string };
const ICE_URL = /^(stun|stuns|turn|turns):[^\s,]+$/;
/** `ICE_SERVERS`: a JSON array of { urls, username?, credential? }, or a comma list of stun:/turn: URLs. */
const iceServers = z
  .string()
  .optional()
  .transform((text, ctx): IceServer[] => {
    if (text === undefined) return [];
    const bad = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    const trimmed = text.trim();
    if (!trimmed.startsWith('[')) {
      const urls = trimmed
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      if (urls.some((u) => !ICE_URL.test(u)))
        return bad('must be stun:/turn: URLs separated by commas, or a JSON array of { urls, username?, credential? }');
      return urls.map((u) => ({ urls: [u] }));
    }
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return bad('is not valid JSON (a JSON array of { urls, username?, credential? }, or a comma list of URLs)');
    }
    const entry = z.object({
      urls: z.union([z.string(), z.array(z.string()).min(1)]).transform((u) => (Array.isArray(u) ? u : [u])),
      username: z.string().min(1).optional(),
      credential: z.string().min(1).optional(),
    });
    const servers = z.array(entry).safeParse(value);
    if (!servers.success) return bad('must be a JSON array of { urls, username?, credential? }');
    if (servers.data.some((s) => s.urls.some((u) => !ICE_URL.test(u)))) return bad('has a URL that is not stun:, stuns:, turn: or turns:');
    return servers.data;
  });
/** The browsers' own push services (Chrome and Edge's FCM, Firefox, Safari, Windows): the default allow-list. */
export const DEFAULT_PUSH_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'];
const base64url = (bytes: number, what: string) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), `must be ${what} (npx web-push generate-vapid-keys)`);
const pushHostList = z
  .string()
  .default(DEFAULT_PUSH_HOSTS.join(','))
  .transform((text, ctx) => {
    const hosts = text
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    const bad = hosts.find((h) => !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(h));
    if (hosts.length === 0 || bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be host names separated by commas, each exact or *.domain${bad ? ` (not "${bad}")` : ''}`,
      });
      return z.NEVER;
    }
    return hosts;
  });
const positiveInt = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be more than 0');

/** What docs/configuration.md and .env.example say of a variable (both generated: npm run docs:config). */
export type EnvDoc = {
  /** The default as a person reads it (markdown). */
  default: string;
  /** A value for .env.example ('' when there is no sensible example, such as a secret). */
  example: string;
  /** What it does, in markdown. */
  description: string;
};
const envDocs = z.registry<EnvDoc>();

const envObject = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development').register(envDocs, {
    default: '`development`',
    example: 'production',
    description: '`production` hides internal error details and requires `APP_SECRET`.',
  }),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000)
    .register(envDocs, { default: '`3000`', example: '3000', description: 'HTTP port (0 picks a free one).' }),
  HOST: z.string().min(1).default('127.0.0.1').register(envDocs, {
    default: '`127.0.0.1`',
    example: '127.0.0.1',
    description: 'Interface to listen on; `0.0.0.0` for every interface (the Docker image sets it).',
  }),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for the embedded database)')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'postgres://postgres@127.0.0.1:5432/poshan',
      description: 'A `postgres://` URL → real Postgres through `pg`. Unset → the embedded Postgres (PGlite) in `DATA_DIR`.',
    }),
  DATABASE_NAMED_STATEMENTS: booleanFlag.default(true).register(envDocs, {
    default: '`1`',
    example: '1',
    description:
      'With `DATABASE_URL`: each query text is prepared once per connection, then only bound and run (`server/db/prepared-pool.ts`). `0` sends every query unnamed: needed behind a pooler that cannot hold prepared statements across transactions (PgBouncer in transaction mode before 1.21). Costs a parse and plan per query.',
  }),
  DATA_DIR: z.string().min(1).default('./.data').register(envDocs, {
    default: '`./.data`',
    example: './.data',
    description: 'The embedded database, its lock file, uploaded files (without `S3_BUCKET`) and the generated secrets.',
  }),
  CLIENT_DIST_DIR: z.string().min(1).optional().register(envDocs, {
    default: '`dist/`',
    example: './dist',
    description:
      "The built web client to serve (`vite build`'s output); nothing is served at `/` when it holds no `index.html`. The browser tests point it at a fresh directory per run.",
  }),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional().register(envDocs, {
    default: 'generated',
    example: '',
    description:
      'At least 32 characters (`openssl rand -hex 32`). Required when `NODE_ENV=production`; otherwise generated once and kept in `DATA_DIR/app-secret`. Seals the sign-in encryption keys and the web push key, signs links: keep it stable.',
  }),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'smtp://user:pass@smtp.example.com:587',
      description:
        '`smtp://user:pass@host:587` or `smtps://…`. Unset → mail is only kept in the `outbox` table (links that are credentials hidden) and its subject logged: password and set-password links need SMTP.',
    }),
  MAIL_FROM: z.string().min(3).default('Poshan <no-reply@poshan.local>').register(envDocs, {
    default: '`Poshan <no-reply@poshan.local>`',
    example: 'Poshan <no-reply@poshan.example>',
    description: 'Sender of every mail.',
  }),
  PUBLIC_URL: z.url('must be an absolute URL such as https://poshan.example').optional().register(envDocs, {
    default: 'unset',
    example: 'https://poshan.example',
    description:
      "The absolute address users reach (`https://poshan.example`): mailed links, the OpenAPI server URL, canonical and Open Graph URLs, the sitemap (else the request's origin).",
  }),
  SEED_DEMO: booleanFlag.optional().register(envDocs, {
    default: 'on if embedded, off with `DATABASE_URL`',
    example: '1',
    description: '`1/0`, `true/false`, `yes/no`, `on/off`. Demo content is only ever added to a database without any account.',
  }),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info').register(envDocs, {
    default: '`info`',
    example: 'info',
    description: '`debug`, `info`, `warn`, `error`, `silent`. `info` writes one line per request.',
  }),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional().register(envDocs, {
    default: '`pretty` in development, else `json`',
    example: 'json',
    description:
      '`json` (one JSON object a line, for log shippers) or `pretty` (readable lines; needs the `pino-pretty` dev dependency, falls back to JSON without it).',
  }),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 24`)')
    .regex(/^\S+$/, 'must not contain spaces')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: '',
      description:
        'At least 16 characters. Set → metrics are recorded and `GET /metrics` serves them to `Authorization: Bearer <token>` (401 otherwise). Unset → `/metrics` is 404 and nothing is recorded. See [Operating](operating.md).',
    }),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'must be an http:// or https:// URL such as http://otel-collector:4318')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'http://otel-collector:4318',
      description:
        'An `http(s)://` OTLP/HTTP collector address. Set → OpenTelemetry traces of HTTP requests, tRPC procedures and pg queries go there; unset → no tracing code is loaded. See [Operating](operating.md).',
    }),
  OTEL_SERVICE_NAME: z
    .string()
    .min(1)
    .default('poshan')
    .register(envDocs, { default: '`poshan`', example: 'poshan', description: 'The service name the traces carry.' }),
  OTEL_TRUST_TRACEPARENT: booleanFlag.default(false).register(envDocs, {
    default: '`0`',
    example: '0',
    description:
      "`1` → an incoming `traceparent`/`tracestate`/`baggage` continues its caller's trace. Only behind a proxy you run that sets or strips those headers: from anyone else they choose trace ids and sampling. Off → every request starts its own trace.",
  }),
  TRUST_PROXY: booleanFlag.default(false).register(envDocs, {
    default: '`0`',
    example: '0',
    description:
      'Take the client IP from the rightmost `X-Forwarded-For` entry (rate limits, visit hashing, WebSocket cap): only behind a reverse proxy you run, which appends it.',
  }),
  RATE_LIMIT_SIGN_IN_IP: rateLimit('30/5m').register(envDocs, {
    default: '`30/5m`',
    example: '30/5m',
    description:
      'Sign-in attempts per client IP, successful or not. Every `RATE_LIMIT_*` is `<count>/<window>`, window in `s`, `m` or `h` (at most `24h`).',
  }),
  RATE_LIMIT_SIGN_IN_ACCOUNT: rateLimit('10/15m').register(envDocs, {
    default: '`10/15m`',
    example: '10/15m',
    description: 'Sign-ins for one account not followed by a success, from devices that never signed in to it.',
  }),
  RATE_LIMIT_SIGN_IN_DEVICE: rateLimit('10/15m').register(envDocs, {
    default: '`10/15m`',
    example: '10/15m',
    description: "The same, for one known device: an attacker's failures never lock the owner's device out.",
  }),
  RATE_LIMIT_PASSWORD_RESET_IP: rateLimit('5/15m').register(envDocs, {
    default: '`5/15m`',
    example: '5/15m',
    description: 'Forgot-password requests per IP.',
  }),
  RATE_LIMIT_PASSWORD_RESET_EMAIL: rateLimit('5/15m').register(envDocs, {
    default: '`5/15m`',
    example: '5/15m',
    description: 'Forgot-password requests per e-mail address.',
  }),
  RATE_LIMIT_FORMS_IP: rateLimit('20/1h').register(envDocs, {
    default: '`20/1h`',
    example: '20/1h',
    description: 'Support requests per IP, and consultation bookings per IP (each form counted on its own).',
  }),
  RATE_LIMIT_FORMS_EMAIL: rateLimit('5/1h').register(envDocs, {
    default: '`5/1h`',
    example: '5/1h',
    description: 'Support requests, and consultation bookings, per e-mail address.',
  }),
  RATE_LIMIT_VISITS_IP: rateLimit('300/15m').register(envDocs, {
    default: '`300/15m`',
    example: '300/15m',
    description: 'Counted visits (`track-visit`) per IP.',
  }),
  RATE_LIMIT_CHECK_INS: rateLimit('10/1h').register(envDocs, {
    default: '`10/1h`',
    example: '10/1h',
    description:
      'New check-ins per client, whoever sends them (a repeat with the same `clientRequestId` is not counted: it returns the first).',
  }),
  RATE_LIMIT_MESSAGES: rateLimit('30/1m').register(envDocs, {
    default: '`30/1m`',
    example: '30/1m',
    description: 'New messages per sender, client or dietitian (a repeat with the same `clientMessageId` is not counted).',
  }),
  RATE_LIMIT_CARE_RECORD: rateLimit('60/1h').register(envDocs, {
    default: '`60/1h`',
    example: '60/1h',
    description:
      'New goals, body measurements, progress photos and documents per client, whoever adds them (a repeated `clientRequestId` is not counted).',
  }),
  RATE_LIMIT_INTAKE_SAVES: rateLimit('300/1h').register(envDocs, {
    default: '`300/1h`',
    example: '300/1h',
    description: "Saves of one client's intake questionnaire (`PUT /api/intake`; the form saves as the client goes).",
  }),
  RATE_LIMIT_REFRESH_SIGN_IN: rateLimit('10/15m').register(envDocs, {
    default: '`10/15m`',
    example: '10/15m',
    description: 'Session renewals (`refresh-token`) of one sign-in; a browser renews about once an hour.',
  }),
  RATE_LIMIT_REFRESH_IP: rateLimit('120/15m').register(envDocs, {
    default: '`120/15m`',
    example: '120/15m',
    description: 'Session renewals per IP, whatever the sign-in.',
  }),
  RATE_LIMIT_UPLOADS: rateLimit('20/1m').register(envDocs, {
    default: '`20/1m`',
    example: '20/1m',
    description: 'Attachments one person may upload per window (`POST /api/attachments`); 429 with `Retry-After` beyond it.',
  }),
  RATE_LIMIT_JOURNAL: rateLimit('60/1h').register(envDocs, {
    default: '`60/1h`',
    example: '60/1h',
    description: 'New meal journal entries and comments per person (a repeat with the same `clientEntryId` is not counted).',
  }),
  UPLOAD_DAILY_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int('must be a whole number of megabytes')
    .min(10, 'must be at least 10 (one file may be 10 MB)')
    .default(100)
    .register(envDocs, {
      default: '`100`',
      example: '100',
      description: 'Megabytes one person may upload in 24 hours (at least 10: one file may be 10 MB).',
    }),
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'must be an http:// or https:// URL such as http://minio:9000')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'http://minio:9000',
      description:
        "The store's address for MinIO and other S3-compatible servers (`http://minio:9000`); unset for AWS S3. Path-style requests.",
    }),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'poshan-files',
      description:
        'Unset → uploaded files are kept in `DATA_DIR/files` (one instance only). Set → they go to this bucket of an S3-compatible store (required for more than one instance; see [Operating](operating.md#files-attachments)).',
    }),
  S3_REGION: z
    .string()
    .min(1)
    .default('us-east-1')
    .register(envDocs, { default: '`us-east-1`', example: 'us-east-1', description: "The bucket's region (MinIO accepts any)." }),
  S3_ACCESS_KEY_ID: z.string().min(1).optional().register(envDocs, {
    default: 'unset',
    example: '',
    description: "The store's access key, with `S3_SECRET_ACCESS_KEY` (both or neither; neither → the AWS SDK's own credential chain).",
  }),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .optional()
    .register(envDocs, { default: 'unset', example: '', description: "The store's secret key, with `S3_ACCESS_KEY_ID`." }),
  ICE_SERVERS: iceServers.register(envDocs, {
    default: 'unset',
    example: 'stun:turn.example.org:3478,turn:turn.example.org:3478?transport=udp',
    description:
      'STUN/TURN servers for calls: a comma list of `stun:`/`turn:` URLs, or a JSON array of `{ urls, username?, credential? }`. Unset → calls connect directly only.',
  }),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters (the static-auth-secret of coturn)').optional().register(envDocs, {
    default: 'unset',
    example: '',
    description:
      "coturn's `static-auth-secret` (at least 16 characters): TURN servers in `ICE_SERVERS` without fixed credentials get short-lived ones made from it per person and call.",
  }),
  RAZORPAY_KEY_ID: z
    .string()
    .regex(/^rzp_(test|live)_\w+$/, 'must be a Razorpay key id such as rzp_live_AbCd1234')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: 'rzp_live_...',
      description:
        'Razorpay, all three `RAZORPAY_KEY_*`/`RAZORPAY_WEBHOOK_SECRET` or none. Set → each new invoice gets a Razorpay payment link ("Pay online") and `POST /api/webhooks/razorpay` marks invoices paid; unset → UPI claims only and the webhook answers 404.',
    }),
  RAZORPAY_KEY_SECRET: z
    .string()
    .min(8, 'must be the key secret from the Razorpay dashboard')
    .optional()
    .register(envDocs, { default: 'unset', example: '', description: 'The key secret from the Razorpay dashboard.' }),
  RAZORPAY_WEBHOOK_SECRET: z
    .string()
    .min(8, 'must be at least 8 characters (the secret set on the webhook in Razorpay)')
    .optional()
    .register(envDocs, {
      default: 'unset',
      example: '',
      description: 'The secret set on the webhook in Razorpay (event `payment_link.paid`).',
    }),
  RAZORPAY_API_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http:// or https:// URL such as https://api.razorpay.com/v1')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://api.razorpay.com/v1')
    .register(envDocs, {
      default: '`https://api.razorpay.com/v1`',
      example: 'https://api.razorpay.com/v1',
      description: "Razorpay's API address (tests point it at a server they start).",
    }),
  WS_UNAUTHENTICATED_CLOSE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100 (ms)')
    .max(60_000, 'must be at most 60000 (ms)')
    .default(5_000)
    .register(envDocs, {
      default: '`5000`',
      example: '5000',
      description:
        'How long a WebSocket without a live session stays open (100–60000 ms); every call on it answers UNAUTHORIZED meanwhile.',
    }),
  WS_MAX_PER_IP: positiveInt.default(50).register(envDocs, {
    default: '`50`',
    example: '50',
    description: 'Open WebSockets one client address may hold; one more is answered 429.',
  }),
  WS_MAX_SUBSCRIPTIONS: positiveInt.default(100).register(envDocs, {
    default: '`100`',
    example: '100',
    description:
      'Live subscriptions one WebSocket may hold at once; one more is refused with a `TOO_MANY_REQUESTS` error on that subscription (the socket stays open).',
  }),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(30_000).register(envDocs, {
    default: '`30000`',
    example: '30000',
    description: 'A connection that has not sent its whole request head by then is answered 408 and closed.',
  }),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(120_000).register(envDocs, {
    default: '`120000`',
    example: '120000',
    description: 'A request whose body has not arrived by then is answered 408 and closed (uploads of 10 MB need room).',
  }),
  SHUTDOWN_GRACE_MS: positiveInt.default(10_000).register(envDocs, {
    default: '`10000`',
    example: '10000',
    description: 'On SIGTERM, how long requests in flight may take to finish before their connections are cut.',
  }),
  VAPID_PUBLIC_KEY: base64url(65, 'a VAPID public key: 87 URL-safe base64 characters').optional().register(envDocs, {
    default: 'generated',
    example: '',
    description:
      'The web push key pair (`npx web-push generate-vapid-keys`), with `VAPID_PRIVATE_KEY`, both or neither. Unset, the first start makes a pair and keeps it in the database, its private key sealed with `APP_SECRET`, so every instance with that secret signs with it. Changing the pair silences every device until it subscribes again.',
  }),
  VAPID_PRIVATE_KEY: base64url(32, 'a VAPID private key: 43 URL-safe base64 characters').optional().register(envDocs, {
    default: 'generated',
    example: '',
    description: 'The private half of the web push key pair, with `VAPID_PUBLIC_KEY`.',
  }),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https:// URL')
    .optional()
    .register(envDocs, {
      default: "`PUBLIC_URL` if https, else `mailto:` + `MAIL_FROM`'s address",
      example: 'mailto:care@poshan.example',
      description: 'How push services may contact the operator: a `mailto:` address or an `https://` URL.',
    }),
  PUSH_ALLOWED_HOSTS: pushHostList.register(envDocs, {
    default: "the major browsers' push services",
    example: 'fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,*.notify.windows.com',
    description:
      "Hosts a push subscription's endpoint may name, comma-separated, exact or `*.domain`. Only `https://` on port 443; every resolved address must be public.",
  }),
  PUSH_ALLOW_INSECURE_ENDPOINTS: booleanFlag.default(false).register(envDocs, {
    default: '`0`',
    example: '0',
    description:
      'Tests only (refused in production): accepts and sends to `http`/`https` endpoints on loopback or private addresses (a push service the test runs).',
  }),
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(0)
    .register(envDocs, {
      default: '`0`',
      example: '0',
      description:
        "On SIGTERM, `/readyz` answers 503 for this long while still serving, so a proxy stops routing here before the listener closes (set it above the proxy's health-check interval).",
    }),
});

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
