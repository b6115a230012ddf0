import { createHmac } from 'node:crypto';
import { bucket, takeSlot } from '../auth/rate-limit.js';
import type { Db } from '../db/index.js';
import type { RateLimits } from '../env.js';
import { todayUtc } from '../validation.js';

/**
 * An anonymous visit: the only thing kept about the visitor is an HMAC of
 * (day, IP, user agent) keyed by the app secret. The day is part of the key,
 * so the same person cannot be followed from one day to the next.
 */
export function visitorHash(secret: string, day: string, ip: string, userAgent: string): string {
  return createHmac('sha256', `${secret}:visits:${day}`).update(`${ip}\n${userAgent}`).digest('base64url').slice(0, 22);
}

export async function recordVisit(
  db: Db,
  secret: string,
  limits: Pick<RateLimits, 'visitsIp'>,
  meta: { ip: string; userAgent: string },
  now = new Date(),
) {
  await takeSlot(db, 'visits from your network', [{ kind: 'visit-ip', bucket: bucket.visitIp(meta.ip), ...limits.visitsIp }], now);
  const day = todayUtc(now);
  await db
    .insertInto('visits')
    .values({ day, visitor_hash: visitorHash(secret, day, meta.ip, meta.userAgent) })
    .execute();
  return { day };
}
