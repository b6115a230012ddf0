import { z } from 'zod';
import { envDocs, rateLimit } from './fields.js';

/** Rate limits (server/auth/rate-limit.ts) and the daily upload budget. */
export const limitVars = {
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
};
