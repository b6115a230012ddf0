import { z } from 'zod';
import { base64url, booleanFlag, envDocs, positiveInt, pushHostList } from './fields.js';

/** Connections: WebSocket and HTTP limits, Web Push, and how the server shuts down. */
export const connectionVars = {
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
};
