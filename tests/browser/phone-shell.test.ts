import { NOT_KEPT_OFFLINE } from '../../src/lib/offline-cache.js';
import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { httpClient } from '../helpers/callers.js';
import { addDietPlans, addSubscription, adminApi, localDay, newClient } from '../helpers/fixtures.js';
import { animationsFinished, keptQueryKeys, screenshot, signedInPage } from '../helpers/pages.js';
import { seriousAxeViolations } from '../helpers/public-site.js';
import type { TestServer } from '../helpers/server.js';

/** The dashboard on a phone: the tab bar and its live counts, the title count, toasts, dialogs, offline screens. */

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
};

/** Every dashboard screen, as the drawer (or the tab bar) reaches it, with a text its saved data shows. */
const SCREENS: { title: string; path: string; shows?: string }[] = [
  { title: 'Feeds', path: '/dashboard/feeds', shows: 'methi seeds' },
  { title: 'Messages', path: '/dashboard/messages', shows: 'Drink water before lunch' },
  { title: 'Meal Journal', path: '/dashboard/journal' },
  { title: 'My Diet Plans', path: '/dashboard/diet-plan', shows: 'Plan 10' },
  { title: 'Update Weight', path: '/dashboard/update-weight' },
  { title: 'Check-in', path: '/dashboard/check-in' },
  { title: 'Appointments', path: '/dashboard/appointments' },
  { title: 'Goals & Progress', path: '/dashboard/progress' },
  { title: 'Documents', path: '/dashboard/documents' },
  { title: 'Write a Review', path: '/dashboard/write-review' },
  { title: 'Active Subscription', path: '/dashboard/active-subscription' },
  { title: 'Payments', path: '/dashboard/payments' },
  { title: 'Check BMI', path: '/dashboard/check-bmi' },
  { title: 'My Profile', path: '/dashboard/profile' },
];
const TABS = ['Messages', 'Journal', 'Appointments', 'Plan'];

/** Goes to a screen the way a person does on a phone: its tab, else More and the drawer's link. */
async function open(page: Page, title: string) {
  const tabs = page.getByRole('navigation', { name: 'Sections' });
  const tab = { Messages: 'Messages', 'Meal Journal': 'Journal', Appointments: 'Appointments', 'My Diet Plans': 'Plan' }[title];
  if (tab) {
    await tabs.getByRole('link', { name: tab }).click();
    return;
  }
  await tabs.getByRole('button', { name: /^More/ }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: title, exact: true }).click();
}

/** A screen has settled: no spinner, nothing waiting for a connection. */
const settled = (page: Page) =>
  expect
    .poll(async () => (await page.locator('main .animate-spin').count()) + (await page.getByTestId('offline-not-saved').count()), {
      timeout: 15_000,
    })
    .toBe(0);

/** The query paths kept in the dashboard's IndexedDB record ('weight.list'). Not every key is a tRPC path (an array
 * first): a plain key such as ['notifications', 'preferences'] reads as its words joined. */
const keptPaths = async (page: Page) =>
  (await keptQueryKeys(page)).map((key) => (Array.isArray(key[0]) ? key[0].join('.') : key.filter((k) => typeof k === 'string').join('.')));

describe('the dashboard on a phone', () => {
  it('has a tab bar with live counts of new messages and comments, and the count in the title', async () => {
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Menon' });
    const admin = await adminApi(server);
    const api = httpClient(server.url, client.token);
    const conversationId = (await api.messages.conversations.query({})).items[0]!.id;
    const meal = await api.journal.create.mutate({ clientEntryId: randomUUID(), meal: 'breakfast', description: 'Idli and sambar' });
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    const tabs = page.getByRole('navigation', { name: 'Sections' });
    await expect.poll(() => tabs.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await tabs.getByRole('link').allTextContents()).toEqual(TABS);
    expect(await tabs.getByRole('button').textContent()).toBe('More');
    // Every tab is a comfortable target, across the whole width, at the bottom of the screen.
    for (const target of await tabs.locator('a, button').all()) {
      const b = await box(target);
      expect(b.height).toBeGreaterThanOrEqual(44);
      expect(b.width).toBeGreaterThanOrEqual(44);
    }
    const bar = await box(tabs);
    expect(bar.y + bar.height).toBe(PHONE.height);
    // Feeds is under More: no tab is current.
    expect(await tabs.locator('[aria-current="page"]').count()).toBe(0);
    await tabs.getByRole('link', { name: 'Plan' }).click();
    await expect.poll(() => tabs.getByRole('link', { name: 'Plan' }).getAttribute('aria-current')).toBe('page');
    expect(await tabs.locator('[aria-current="page"]').count()).toBe(1);
    await expect.poll(() => page.title()).toBe('My Diet Plans | Poshan');
    await page.waitForLoadState('networkidle');

    // The dietitian writes: within a second the Messages tab counts it, and so does the title.
    await admin.messages.send.mutate({ conversationId, text: 'Drink water before lunch', clientMessageId: randomUUID() });
    const messagesBadge = page.getByTestId('tab-badge-messages');
    await expect.poll(() => messagesBadge.textContent(), { timeout: 1_000, interval: 50 }).toBe('1');
    await expect.poll(() => page.title(), { timeout: 1_000, interval: 50 }).toBe('(1) My Diet Plans | Poshan');
    expect(await tabs.getByRole('link', { name: 'Messages, 1 new' }).count()).toBe(1);

    // A comment on her meal counts on the Journal tab (and in the title).
    await admin.journal.comment.mutate({ entryId: meal.id, text: 'Good start, add some fruit' });
    await expect.poll(() => page.getByTestId('tab-badge-journal').textContent(), { timeout: 5_000 }).toBe('1');
    await expect.poll(() => page.title()).toBe('(2) My Diet Plans | Poshan');
    await screenshot(page, 'phone-tab-bar-counts');

    // Reading them clears each count.
    await tabs.getByRole('link', { name: /^Journal/ }).click();
    await expect.poll(() => page.getByTestId('tab-badge-journal').count(), { timeout: 10_000 }).toBe(0);
    await tabs.getByRole('link', { name: /^Messages/ }).click();
    await expect.poll(() => messagesBadge.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.title()).toBe('Messages | Poshan');

    // More opens the drawer with the rest, above the tab bar.
    await tabs.getByRole('button', { name: 'More' }).click();
    // (Closed, the drawer is hidden from the accessibility tree: found by its test id.)
    const drawer = page.getByTestId('dashboard-drawer');
    await expect.poll(() => drawer.getAttribute('data-state')).toBe('open');
    expect(await tabs.getByRole('button', { name: 'More' }).getAttribute('aria-expanded')).toBe('true');
    const drawerBox = await box(drawer);
    expect(drawerBox.y + drawerBox.height).toBeLessThanOrEqual(bar.y + 1);
    await animationsFinished(page);
    await screenshot(page, 'phone-more-drawer');
    await drawer.getByRole('link', { name: 'Payments' }).click();
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe('/dashboard/payments');
    await expect.poll(() => drawer.getAttribute('data-state')).toBe('collapsed');

    // The desktop keeps the sidebar and has no tab bar.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => tabs.isVisible()).toBe(false);
    await expect.poll(() => drawer.getAttribute('data-state')).toBe('open');
    await animationsFinished(page);
    await screenshot(page, 'dashboard-desktop-sidebar');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows toasts at the bottom, clear of the tab bar and the menu button, and dialogs above the top bar', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/update-weight');
    await page.getByLabel('Enter Weight (kg)').fill('68.4');
    await page.getByRole('button', { name: 'Update' }).click();
    const shown = page.locator('[data-sonner-toast]').first();
    await expect.poll(() => shown.isVisible(), { timeout: 10_000 }).toBe(true);
    await animationsFinished(page);
    const toastBox = await box(shown);
    const bar = await box(page.getByRole('navigation', { name: 'Sections' }));
    const menuButton = page.locator('header button').first();
    const menu = await box(menuButton);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(bar.y);
    expect(toastBox.y).toBeGreaterThan(PHONE.height / 2);
    expect(toastBox.y).toBeGreaterThan(menu.y + menu.height);
    await screenshot(page, 'phone-toast');

    // A dialog covers the top bar too: nothing of the bar can be tapped while it is open.
    await page.goto('/dashboard/journal');
    await page.getByTestId('add-meal').click();
    const dialog = page.getByRole('dialog', { name: 'Add a meal' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await animationsFinished(page);
    // (The dialog hides the rest of the page from assistive technology: the button is found by its place.)
    const menuAgain = await box(menuButton);
    const onTop = await page.evaluate(
      ([x, y]) => {
        const el = document.elementFromPoint(x as number, y as number);
        return el?.closest('header') ? 'header' : el?.closest('[role="dialog"]') ? 'dialog' : 'overlay';
      },
      [menuAgain.x + menuAgain.width / 2, menuAgain.y + menuAgain.height / 2],
    );
    expect(onTop).not.toBe('header');
    const dialogBox = await box(dialog);
    const close = await box(dialog.getByRole('button', { name: 'Close' }));
    expect(close.height).toBeGreaterThanOrEqual(44);
    expect(dialogBox.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'phone-dialog');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('has no serious accessibility faults on the dashboard at 375 and 1440 px', async () => {
    const client = await newClient(server);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      for (const path of ['/dashboard/feeds', '/dashboard/messages', '/dashboard/journal']) {
        await page.goto(path);
        await expect.poll(() => page.locator('h1').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await page.waitForLoadState('networkidle');
        await animationsFinished(page);
        expect.soft(await seriousAxeViolations(page), `${path} at ${viewport.width} px`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 120_000);
});

describe('the first load after sign-in', () => {
  it('loads no dashboard code while /login loads, and fetches it once the form is first used', async () => {
    const { context, page, errors } = await signedInPage(browser, server, null, { viewport: PHONE });
    const dashboardChunks: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/DashboardArea-[\w-]+\.js$/.test(request.url())) dashboardChunks.push(request.url());
    });
    await page.goto('/login');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(dashboardChunks).toEqual([]);
    await page.getByLabel('Email', { exact: true }).focus();
    await expect.poll(() => dashboardChunks.length, { timeout: 10_000 }).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('the console at 1440 px', () => {
  it('titles every page in one pattern, "<page> · Console | Poshan"', async () => {
    const admin = await server.user({ role: 'admin' });
    const { context, page, errors } = await signedInPage(browser, server, admin, { viewport: DESKTOP });
    for (const [path, title] of [
      ['/admin', 'Overview'],
      ['/admin/appointments', 'Appointments'],
      ['/admin/appointments/availability', 'Availability'],
      ['/admin/clients', 'Clients'],
    ] as const) {
      await page.goto(path);
      await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(`${title} · Console | Poshan`);
    }
    await screenshot(page, 'console-clients');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the dashboard offline', () => {
  it('opens every screen seen once from its saved data, marked as such, and lists a queued meal and message', async () => {
    const admin = await adminApi(server);
    await admin.admin.feed.create.mutate({ desc: 'Soak the methi seeds overnight' });
    const client = await newClient(server, { firstName: 'Nisha', lastName: 'Rao', heightM: 1.6, weightKg: 62 });
    await addDietPlans(server, client.id, [10]);
    await addSubscription(server, client.id, localDay(-20));
    const api = httpClient(server.url, client.token);
    await api.weight.add.mutate({ weight: 62.5, date: localDay(-7) });
    const conversationId = (await api.messages.conversations.query({})).items[0]!.id;
    await admin.messages.send.mutate({ conversationId, text: 'Drink water before lunch', clientMessageId: randomUUID() });
    const { context, page } = await signedInPage(browser, server, client, { viewport: PHONE });
    // Every read the screens make online (a batch of queries is one GET naming them all).
    const read = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (response.request().method() !== 'GET' || response.status() !== 200 || !url.pathname.startsWith('/trpc/')) return;
      for (const path of decodeURIComponent(url.pathname.slice('/trpc/'.length)).split(',')) read.add(path);
    });

    // Online, once: every screen, reached through the tab bar and the drawer.
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByText('methi seeds').count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), { timeout: 30_000 })
      .toBe('activated');
    for (const screen of SCREENS.slice(1)) {
      await open(page, screen.title);
      await expect.poll(() => page.evaluate(() => location.pathname)).toBe(screen.path);
      await settled(page);
      if (screen.shows)
        await expect
          .poll(
            () =>
              page
                .getByText(screen.shows as string)
                .first()
                .isVisible(),
            { timeout: 15_000 },
          )
          .toBe(true);
    }
    await page.waitForLoadState('networkidle');
    // Kept on the phone a moment after it shows: everything read is in the IndexedDB record (but the
    // answers deliberately never kept, a client's nutrition numbers).
    const notKept = async () => {
      const kept = new Set(await keptPaths(page));
      return [...read].filter((path) => !kept.has(path) && !NOT_KEPT_OFFLINE.has(path.split('.')[0]!));
    };
    await expect.poll(notKept, { timeout: 10_000 }).toEqual([]);

    // Offline: the app opens again, and every screen shows what was saved, never "Try again".
    await context.setOffline(true);
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByText('methi seeds').count(), { timeout: 15_000 }).toBe(1);
    const banner = page.getByTestId('offline-banner');
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await page.getByTestId('offline-saved').textContent()).toMatch(/saved on this phone today at/);
    for (const screen of SCREENS.slice(1)) {
      await open(page, screen.title);
      await expect.poll(() => page.evaluate(() => location.pathname)).toBe(screen.path);
      await settled(page);
      expect(await banner.isVisible(), `${screen.path}: marked as saved data`).toBe(true);
      expect(await page.getByRole('button', { name: 'Try again' }).count(), `${screen.path}: no "Try again"`).toBe(0);
      expect(await page.getByText('Failed to fetch').count(), `${screen.path}: no "Failed to fetch"`).toBe(0);
      if (screen.shows) expect(await page.getByText(screen.shows).first().isVisible(), `${screen.path}: its saved data`).toBe(true);
      if (screen.path === '/dashboard/appointments') await screenshot(page, 'offline-appointments');
    }

    // A meal and a message made offline: the banner lists both as waiting.
    await open(page, 'Meal Journal');
    await page.getByTestId('add-meal').click();
    const dialog = page.getByRole('dialog', { name: 'Add a meal' });
    await dialog.getByLabel('What did you eat?').fill('Poha on the train');
    await dialog.getByRole('button', { name: 'Log meal' }).click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    await open(page, 'Messages');
    await page.getByRole('textbox', { name: 'Message' }).fill('Written without signal');
    await page.getByRole('button', { name: 'Send' }).click();
    const queued = page.getByTestId('offline-queued');
    await expect
      .poll(() => queued.locator('li').allTextContents(), { timeout: 10_000 })
      .toEqual(['Meal: Poha on the train', 'Message: “Written without signal”']);
    expect(await banner.textContent()).toContain('2 waiting to send');
    await screenshot(page, 'offline-banner-queued');

    // Back online: both go, and the banner leaves.
    await context.setOffline(false);
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(
        async () =>
          (await server.deps.db.selectFrom('meal_entries').select('id').where('description', '=', 'Poha on the train').execute()).length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    await expect
      .poll(
        async () =>
          (await server.deps.db.selectFrom('messages').select('id').where('text', '=', 'Written without signal').execute()).length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    await context.close();
  }, 600_000);
});
