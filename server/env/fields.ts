import { z } from 'zod';
import { DAY_MS } from '../time.js';

/** The field types of the environment's variables, and the registry of their documentation (npm run docs:config). */

export const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of 1/0, true/false, yes/no, on/off',
  })
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

export const WINDOW_UNITS_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
/** A rate limit written as `<count>/<window>`, e.g. `30/5m` (units s, m, h; at most 24h). */
export const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const match = /^(\d+)\/(\d+)(s|m|h)$/.exec(text.trim());
      const max = Number(match?.[1]);
      const windowMs = Number(match?.[2]) * WINDOW_UNITS_MS[(match?.[3] ?? 's') as keyof typeof WINDOW_UNITS_MS];
      if (!match || max < 1 || windowMs < 1000 || windowMs > DAY_MS) {
        ctx.addIssue({ code: 'custom', message: 'must be <count>/<window> such as 30/5m (count ≥ 1, window 1s to 24h)' });
        return z.NEVER;
      }
      return { max, windowMs };
    });
/** One STUN/TURN server as RTCPeerConnection takes it; TURN credentials may be fixed here or made from TURN_SECRET. */
export type IceServer = { urls: string[]; username?: string; credential?: string };
export const ICE_URL = /^(stun|stuns|turn|turns):[^\s,]+$/;
/** `ICE_SERVERS`: a JSON array of { urls, username?, credential? }, or a comma list of stun:/turn: URLs. */
export const iceServers = z
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
export const base64url = (bytes: number, what: string) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), `must be ${what} (npx web-push generate-vapid-keys)`);
export const pushHostList = z
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
export const positiveInt = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be more than 0');

/** What docs/configuration.md and .env.example say of a variable (both generated: npm run docs:config). */
export type EnvDoc = {
  /** The default as a person reads it (markdown). */
  default: string;
  /** A value for .env.example ('' when there is no sensible example, such as a secret). */
  example: string;
  /** What it does, in markdown. */
  description: string;
};
export const envDocs = z.registry<EnvDoc>();
