import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WEIGHT_QUEUED } from '../../src/features/dashboard/weight/UpdateWeightPage.js';
import { MEAL_QUEUED } from '../../src/features/dashboard/offline/queued.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, DESKTOP, PHONE } from '../helpers/browser.js';
import { adminApi, type Client, localDay, newClient } from '../helpers/fixtures.js';
import { expectToast, keptQueryKeys, screenshot, signedInPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

/** The installable, offline-capable dashboard (decision 116). */

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The service worker is active (its precache complete) for this page's origin. */
async function workerActive(page: Page) {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), { timeout: 30_000 })
    .toBe('activated');
}

/** The first part of each query key kept in the dashboard's IndexedDB record (e.g. '["weight","list"]'). */
const keptQueries = async (page: Page) => (await keptQueryKeys(page)).map((key) => JSON.stringify(key[0]));

const keptQuery = async (page: Page, path: string[]) => (await keptQueries(page)).includes(JSON.stringify(path));

describe('the dashboard without a connection', () => {
  it('reloads offline with the last feed and weights, queues a weight, a message and a meal, and sends each once when back online', async () => {
    const admin = await adminApi(server);
    await admin.admin.feed.create.mutate({ desc: 'Soak the methi seeds overnight' });
    const client = await newClient(server, { firstName: 'Nisha', lastName: 'Kulkarni' });
    await server.deps.db
      .insertInto('weights')
      .values({ client_id: client.id, weight_kg: 71.5, date: localDay(-7) })
      .execute();
    const { context, page } = await signedInPage(browser, server, client, { viewport: PHONE });

    // Online first: the dashboard shows the feed, the weights and the (empty) conversation, and keeps them.
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByTestId('feed-post').filter({ hasText: 'methi seeds' }).count(), { timeout: 15_000 }).toBe(1);
    await workerActive(page);
    // Kept a moment after it shows (the snapshot is written in the background, and page.goto loads a new document).
    await expect.poll(() => keptQueries(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['["feed","list"]']));
    await page.goto('/dashboard/weight-history');
    await expect.poll(() => page.getByTestId('weights-table').textContent(), { timeout: 15_000 }).toContain('71.5');
    // Kept a moment after it shows (the snapshot is written in the background): wait for it before leaving the page.
    await expect.poll(() => keptQueries(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['["weight","list"]']));
    await page.goto('/dashboard/messages');
    await expect.poll(() => page.getByTestId('conversation').getAttribute('data-status'), { timeout: 15_000 }).toBe('ready');
    await expect
      .poll(() => keptQueries(page), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['["feed","list"]', '["weight","list"]', '["messages","list"]']));
    await page.goto('/dashboard/journal');
    await expect.poll(() => page.getByTestId('add-meal').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => keptQueries(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['["journal","day"]']));

    // Offline: a reload still opens the dashboard (the service worker's shell and chunks) with the last data.
    await context.setOffline(true);
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByTestId('feed-post').filter({ hasText: 'methi seeds' }).count(), { timeout: 15_000 }).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByTestId('feed-post').filter({ hasText: 'methi seeds' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('offline-banner').isVisible()).toBe(true);
    await screenshot(page, 'pwa-offline-feed');
    await page.goto('/dashboard/weight-history');
    await expect.poll(() => page.getByTestId('weights-table').textContent(), { timeout: 15_000 }).toContain('71.5');

    // A weight recorded offline waits on the device.
    await page.goto('/dashboard/update-weight');
    await page.getByLabel('Enter Weight (kg)').fill('70.8');
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, WEIGHT_QUEUED);
    const waiting = page.getByTestId('waiting-item');
    await expect.poll(() => waiting.getAttribute('data-state')).toBe('waiting');
    expect(await waiting.textContent()).toContain('Waiting to send');
    await screenshot(page, 'pwa-offline-weight-waiting');

    // A meal logged offline waits on the device, shown on the journal.
    await page.goto('/dashboard/journal');
    await page.getByTestId('add-meal').click();
    const dialog = page.getByRole('dialog', { name: 'Add a meal' });
    await dialog.getByLabel('What did you eat?').fill('Poha with peanuts on the train');
    await dialog.getByRole('button', { name: 'Log meal' }).click();
    await expectToast(page, MEAL_QUEUED);
    const waitingMeal = page.getByTestId('waiting-item').filter({ hasText: 'Poha with peanuts' });
    await expect.poll(() => waitingMeal.getAttribute('data-state')).toBe('waiting');
    await screenshot(page, 'pwa-offline-meal-waiting');

    // A message written offline waits too (the conversation opens from what it showed last).
    await page.goto('/dashboard/messages');
    await expect.poll(() => page.getByTestId('conversation').getAttribute('data-status'), { timeout: 15_000 }).toBe('ready');
    await page.getByRole('textbox', { name: 'Message' }).fill('Written on the train without signal');
    await page.getByRole('button', { name: 'Send' }).click();
    const pending = page.getByTestId('chat-pending').filter({ hasText: 'without signal' });
    await expect.poll(() => pending.getAttribute('data-status')).toBe('waiting');
    expect(await pending.textContent()).toContain('Waiting to send');
    await screenshot(page, 'pwa-offline-message-waiting');

    // Back online: both go, once.
    await context.setOffline(false);
    const sent = page.getByTestId('chat-message').filter({ hasText: 'without signal' });
    await expect.poll(() => sent.getAttribute('data-status'), { timeout: 20_000 }).toBe('sent');
    const weightsOn = () =>
      server.deps.db
        .selectFrom('weights')
        .select(['weight_kg'])
        .where('client_id', '=', client.id)
        .where('date', '=', localDay())
        .execute();
    await expect.poll(async () => (await weightsOn()).map((w) => Number(w.weight_kg)), { timeout: 20_000 }).toEqual([70.8]);
    const messagesWith = async () =>
      (await server.deps.db.selectFrom('messages').select('id').where('text', '=', 'Written on the train without signal').execute()).length;
    expect(await messagesWith()).toBe(1);
    const mealsWith = async () =>
      (await server.deps.db.selectFrom('meal_entries').select('id').where('description', '=', 'Poha with peanuts on the train').execute())
        .length;
    await expect.poll(mealsWith, { timeout: 20_000 }).toBe(1);
    // Nothing waits any more, and a reload sends nothing again.
    await page.goto('/dashboard/update-weight');
    await expect.poll(() => page.getByTestId('waiting-item').count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('offline-banner').count()).toBe(0);
    expect(await messagesWith()).toBe(1);
    expect((await weightsOn()).length).toBe(1);
    expect(await mealsWith()).toBe(1);
    await context.close();
  }, 240_000);

  it('forgets the kept data when the user signs out', async () => {
    const client = await newClient(server);
    const { context, page } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/feeds');
    await expect.poll(() => keptQuery(page, ['feed', 'list']), { timeout: 15_000 }).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe('/');
    await expect.poll(() => keptQuery(page, ['feed', 'list'])).toBe(false);
    await context.close();
  }, 120_000);
});

/** Signs a context in as `client`, the way the login page stores a session (as openContext does). */
function seedSession(context: BrowserContext, client: Client) {
  return context.addInitScript(
    ([token, refresh, info]) => {
      if (location.origin === 'null' || sessionStorage.getItem('__seeded')) return;
      localStorage.setItem('user', token);
      localStorage.setItem('refresh_user', refresh);
      localStorage.setItem('info', info);
      sessionStorage.setItem('__seeded', '1');
    },
    [client.token, client.refreshToken, JSON.stringify({ id: client.id, fullName: client.fullName, height: null, weight: null })] as const,
  );
}

/** The service worker's registration id, as the DevTools protocol names it. */
async function registrationId(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const ids: string[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
    for (const r of e.registrations) if (r.scopeURL === `${server.url}/`) ids.push(r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => ids.length, { timeout: 10_000 }).toBeGreaterThan(0);
  return { cdp, id: ids[0]! };
}

describe('installable app and push notifications', () => {
  it('passes the installability checks on /dashboard: manifest from the brand, icons, service worker', async () => {
    const client = await newClient(server);
    // Chromium never offers to install from an incognito profile (Playwright's contexts are): a profile on disk.
    const profile = mkdtempSync(path.join(tmpdir(), 'poshan-pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS],
      baseURL: server.url,
      viewport: DESKTOP,
    });
    await seedSession(context, client);
    const page = await context.newPage();
    await page.goto('/dashboard/feeds');
    await workerActive(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Record<string, any>;
    expect(manifest).toMatchObject({ name: 'Poshan', display: 'standalone', start_url: '/dashboard', theme_color: '#0f766e' });
    expect(manifest.shortcuts.map((s: { name: string }) => s.name)).toEqual(['Messages', 'Meal Journal', 'Update Weight', 'Check-in']);
    const maskable = manifest.icons.filter((i: { purpose: string }) => i.purpose === 'maskable').map((i: { sizes: string }) => i.sizes);
    expect(maskable).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons as { src: string }[]) {
      const res = await page.request.get(icon.src);
      expect(res.headers()['content-type']).toBe('image/png');
    }
    const sw = await page.request.get('/sw.js');
    expect(sw.headers()['cache-control']).toBe('no-cache');
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }, 120_000);

  it('shows a pushed notification and a click on it opens the conversation', async () => {
    const client = await newClient(server);
    const { context, page } = await signedInPage(browser, server, client, { viewport: PHONE });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await page.goto('/dashboard/feeds');
    await workerActive(page);
    const { cdp, id } = await registrationId(context, page);
    const payload = {
      title: 'New message from your dietitian',
      body: 'Open Poshan to read it.',
      url: '/dashboard/messages',
      tag: 'message-1',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: id, data: JSON.stringify(payload) });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const list = (await registration?.getNotifications()) ?? [];
        return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      });
    const { url, ...shownPart } = payload;
    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ ...shownPart, data: { url } }]);

    // Chromium has no DevTools command that clicks a notification. The worker's own notificationclick
    // handler is run with the notification it showed: a NotificationEvent dispatched in the worker.
    const worker = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'));
    expect(worker).toBeDefined();
    await worker!.evaluate(async () => {
      // Worker globals (the test program has the DOM's types only).
      const scope = self as any;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    });
    await expect.poll(() => page.evaluate(() => location.pathname), { timeout: 10_000 }).toBe('/dashboard/messages');
    await expect.poll(() => page.getByTestId('conversation').isVisible(), { timeout: 10_000 }).toBe(true);
    // The click closed it.
    await expect.poll(shown).toEqual([]);
    await context.close();
  }, 120_000);

  it('at 375 px: the install prompt, the iPhone guide, and the notifications card', async () => {
    const client = await newClient(server);
    const { context, page } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByTestId('dashboard-content').count(), { timeout: 15_000 }).toBe(1);
    // The browser's offer, as Chromium makes it when it finds the app installable.
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {},
        userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
      });
      window.dispatchEvent(offer);
    });
    const card = page.getByTestId('install-card');
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.textContent()).toContain('Install Poshan');
    await screenshot(page, 'pwa-install-prompt');
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => card.count()).toBe(0);

    await page.goto('/dashboard/profile');
    const device = page.getByTestId('push-device');
    await expect.poll(() => device.getAttribute('data-state'), { timeout: 15_000 }).toBe('off');
    expect(await device.textContent()).toContain('never your health details');
    expect(await page.getByRole('button', { name: 'Turn on notifications' }).isVisible()).toBe(true);
    // Nothing asked the browser for permission before the tap.
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    await screenshot(page, 'pwa-notifications-card');
    await context.close();

    const iphone = await browser.newContext({
      baseURL: server.url,
      viewport: PHONE,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    });
    await seedSession(iphone, client);
    const ios = await iphone.newPage();
    await ios.goto('/dashboard/feeds');
    const guide = ios.getByTestId('ios-install-guide');
    await expect.poll(() => guide.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await guide.textContent()).toContain('Add to Home Screen');
    await screenshot(ios, 'pwa-ios-guide');
    await iphone.close();
  }, 120_000);
});
