/// <reference lib="webworker" />
/**
 * Poshan's service worker (decision 116), built by Vite through vite-plugin-pwa (scripts/build/pwa.ts).
 * - Precaches the app shell (under its address /dashboard) and every chunk of the build, so the
 *   dashboard opens without a connection. Navigations inside /dashboard get the precached shell; every
 *   other request (public pages, /api, /trpc, files) goes to the network untouched: API answers are
 *   never kept here (the dashboard keeps its own data per user in IndexedDB, src/lib/offline-cache.ts).
 * - A new version waits until the page asks it to take over (the "Reload" of the update notice).
 * - Push: the payload is `{ title, body, url, tag }` (no health details, the server sees to that);
 *   a click focuses an open Poshan window and takes it to `url`, or opens one there.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { type NotificationPayload, NOTIFICATION_OPEN, parsePushPayload, SKIP_WAITING } from './messages';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/dashboard'), { allowlist: [/^\/dashboard(\/|$)/] }));

// The first version installed takes the open dashboard at once: a screen whose code has not been loaded
// yet then comes from the precache if the connection drops before the next reload. The page runs the
// same build it precached, so nothing changes under it; a later version still waits for "Reload".
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

self.addEventListener('push', (event) => {
  const payload = parsePushPayload(event.data?.text() ?? '', self.location.origin);
  event.waitUntil(show(payload));
});

function show(payload: NotificationPayload) {
  return self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag,
    icon: '/icons/icon-192.png',
    badge: '/icons/maskable-192.png',
    data: { url: payload.url },
  });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: unknown } | null)?.url;
  const target = new URL(typeof path === 'string' ? path : '/dashboard', self.location.origin);
  // Only this site's own addresses (parsePushPayload already kept it so).
  const url = target.origin === self.location.origin ? target.href : new URL('/dashboard', self.location.origin).href;
  event.waitUntil(openOrFocus(url));
});

async function openOrFocus(url: string) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((w) => new URL(w.url).origin === self.location.origin);
  // The app already open in the dashboard: it moves there itself (no reload, nothing typed is lost).
  const app = ours.find((w) => new URL(w.url).pathname.startsWith('/dashboard')) ?? ours[0];
  if (app) {
    const focused = await app.focus().catch(() => app);
    if (new URL(focused.url).pathname.startsWith('/dashboard')) {
      focused.postMessage({ type: NOTIFICATION_OPEN, url });
      return;
    }
    if ('navigate' in focused) {
      const moved = await focused.navigate(url).catch(() => null);
      if (moved) return;
    }
  }
  await self.clients.openWindow(url);
}
