import { createHmac } from 'node:crypto';
import { bucket, takeSlot } from '../auth/rate-limit.js';
import type { AppDeps } from '../deps.js';
import type { RequestMeta } from '../http/request-meta.js';
import { todayUtc } from '../validation.js';
import * as repo from './repo.js';

/**
 * An anonymous visit: the only thing kept about the visitor is an HMAC of
 * (day, IP, user agent) keyed by the app secret. The day is part of the key,
 * so the same person cannot be followed from one day to the next.
 */
export function visitorHash(secret: string, day: string, ip: string, userAgent: string): string {
  return createHmac('sha256', `${secret}:visits:${day}`).update(`${ip}\n${userAgent}`).digest('base64url').slice(0, 22);
}

/** Counts one anonymous visit (rate-limited per network). */
export async function recordVisit(deps: Pick<AppDeps, 'db' | 'secret' | 'config'>, meta: RequestMeta, now = new Date()) {
  const limits = deps.config.rateLimits;
  await takeSlot(deps.db, 'visits from your network', [{ kind: 'visit-ip', bucket: bucket.visitIp(meta.ip), ...limits.visitsIp }], now);
  const day = todayUtc(now);
  await repo.insertVisit(deps.db, day, visitorHash(deps.secret, day, meta.ip, meta.userAgent));
  return { day };
}
