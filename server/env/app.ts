import { z } from 'zod';
import { booleanFlag, envDocs } from './fields.js';

/** The app itself: where it listens, its database and files, its secret, mail, logs and telemetry. */
export const appVars = {
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
};
