/**
 * What the service worker and the page say to each other, and how a push payload is read. Shared by
 * src/sw/sw.ts and src/lib/pwa.ts (no DOM or worker globals here, so both can import it).
 */

/** Page → worker: the waiting new version takes over (the user chose "Reload"). */
export const SKIP_WAITING = 'poshan:skip-waiting';
/** Worker → page: a notification was clicked; go to `url` inside the app. */
export const NOTIFICATION_OPEN = 'poshan:notification-open';

export type NotificationPayload = { title: string; body: string; url: string; tag?: string };

const FALLBACK: NotificationPayload = { title: 'Poshan', body: 'You have something new in Poshan.', url: '/dashboard' };

/**
 * A push message's JSON `{ title, body, url, tag }`, kept to plain text of sane length and to an
 * address of this site (anything else opens the dashboard). A message that is not such JSON still
 * shows a notification: a push that shows nothing costs the site its push permission in some browsers.
 */
export function parsePushPayload(text: string, origin: string): NotificationPayload {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return FALLBACK;
  }
  if (typeof raw !== 'object' || raw === null) return FALLBACK;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);
  const title = str(r.title, 120) ?? FALLBACK.title;
  const body = str(r.body, 300) ?? '';
  const tag = str(r.tag, 100);
  return { title, body, url: sameSitePath(r.url, origin), ...(tag ? { tag } : {}) };
}

/** `url` as a path of this site (with its query and hash), or the dashboard. */
export function sameSitePath(url: unknown, origin: string): string {
  if (typeof url !== 'string') return FALLBACK.url;
  try {
    const u = new URL(url, origin);
    return u.origin === origin ? `${u.pathname}${u.search}${u.hash}` : FALLBACK.url;
  } catch {
    return FALLBACK.url;
  }
}
