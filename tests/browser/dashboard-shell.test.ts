import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/session.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { newClient } from '../helpers/fixtures.js';
import { expectPath, expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const LINKS = [
  ['Feeds', '/dashboard/feeds'],
  ['Messages', '/dashboard/messages'],
  ['Meal Journal', '/dashboard/journal'],
  ['My Diet Plans', '/dashboard/diet-plan'],
  ['Update Weight', '/dashboard/update-weight'],
  ['Check-in', '/dashboard/check-in'],
  ['Appointments', '/dashboard/appointments'],
  ['Goals & Progress', '/dashboard/progress'],
  ['Documents', '/dashboard/documents'],
  ['Write a Review', '/dashboard/write-review'],
  ['Active Subscription', '/dashboard/active-subscription'],
  ['Payments', '/dashboard/payments'],
  ['Check BMI', '/dashboard/check-bmi'],
  ['My Profile', '/dashboard/profile'],
] as const;

describe('dashboard shell', () => {
  it('sends signed-out visitors on any dashboard path to /', async () => {
    const { context, page, errors } = await signedInPage(browser, server, null);
    for (const path of ['/dashboard', '/dashboard/feeds', '/dashboard/weight-history', '/dashboard/no-such-page']) {
      await page.goto(path);
      await expectPath(page, '/');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the name, Sign out and the drawer links, highlighting the current one', async () => {
    const client = await newClient(server, { firstName: 'Kavya', lastName: 'Iyer' });
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard');
    await expectPath(page, '/dashboard/feeds');
    await expect.poll(() => page.getByTestId('dashboard-user-name').textContent()).toBe('Kavya Iyer');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    const bar = await page
      .locator('header')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bar).not.toBe('rgba(0, 0, 0, 0)');

    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(240);
    const links = nav.getByRole('link');
    expect(await links.allTextContents()).toEqual([...LINKS.map(([title]) => title), 'Platform Guide']);
    expect(await nav.getByRole('link', { name: 'Platform Guide' }).getAttribute('href')).toBe('/platform-guide');
    for (const [title, href] of LINKS) {
      await nav.getByRole('link', { name: title }).click();
      await expectPath(page, href);
      await expect.poll(() => nav.getByRole('link', { name: title }).getAttribute('aria-current')).toBe('page');
      expect(await nav.locator('[aria-current="page"]').count()).toBe(1);
    }
    // Weight History belongs under Update Weight.
    await page.goto('/dashboard/weight-history');
    await expect.poll(() => nav.getByRole('link', { name: 'Update Weight' }).getAttribute('aria-current')).toBe('page');

    // Collapsed: icons only, each link still named for assistive technology.
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await expect.poll(() => nav.getAttribute('data-state')).toBe('collapsed');
    await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(64);
    expect(await nav.getByText('My Diet Plans').count()).toBe(0);
    await nav.getByRole('link', { name: 'My Diet Plans' }).click();
    await expectPath(page, '/dashboard/diet-plan');
    await screenshot(page, 'dashboard-collapsed');
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect.poll(() => nav.getAttribute('data-state')).toBe('open');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone gives the page the full width and slides the drawer over it', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    // Hidden from everyone while closed, so found by its test id.
    const nav = page.getByTestId('dashboard-drawer');
    await expect.poll(() => nav.getAttribute('data-state')).toBe('collapsed');
    // No permanent icon bar squeezing every card.
    await expect.poll(() => nav.isVisible()).toBe(false);
    const content = await page.getByTestId('dashboard-content').boundingBox();
    expect(content?.x).toBe(16);
    expect(content?.width).toBe(PHONE.width - 32);
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().width)).toBe(240);
    await screenshot(page, 'dashboard-drawer-open');
    await nav.getByRole('link', { name: 'Check BMI' }).click();
    await expectPath(page, '/dashboard/check-bmi');
    await expect.poll(() => nav.getAttribute('data-state')).toBe('collapsed');
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.getAttribute('data-state')).toBe('collapsed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('answers an unknown dashboard path with the 404 words and Go Back Home, inside the frame', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/no-such-page');
    await expect.poll(() => page.getByText("Oops! The page you're looking for doesn't exist.").isVisible()).toBe(true);
    expect(await page.getByTestId('dashboard-user-name').isVisible()).toBe(true);
    const home = page.getByRole('link', { name: 'Go Back Home' });
    expect(await home.getAttribute('href')).toBe('/');
    await screenshot(page, 'dashboard-not-found');
    await home.click();
    await expectPath(page, '/');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs out: clears the session, goes to / and says so', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/dashboard/feeds');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectPath(page, '/');
    await expectToast(page, 'You have been logged out successfully');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const session = await server.deps.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('token_hash', '=', hashToken(client.token))
      .executeTakeFirstOrThrow();
    expect(session.revoked_at).not.toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('renews an expired session token silently with the refresh token', async () => {
    const client = await newClient(server, { firstName: 'Nikhil', lastName: 'Sen' });
    await server.deps.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', hashToken(client.token))
      .execute();
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('user')), { timeout: 10_000 }).not.toBe(client.token);
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('live');
    expect(new URL(page.url()).pathname).toBe('/dashboard/feeds');
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('refresh_user'))).not.toBe(client.refreshToken);
    // The first, expired attempt is a 401 the browser logs; nothing else failed.
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('clears a session the server refuses and goes to / with the message', async () => {
    const client = await newClient(server);
    await server.deps.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('token_hash', '=', hashToken(client.token))
      .execute();
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/dashboard/write-review');
    await expectPath(page, '/');
    await expectToast(page, 'Your session has expired. Please sign in again.');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    expect(await page.locator('[data-sonner-toast]').count()).toBe(1);
    expect(errors.filter((e) => !/40[01]/.test(e))).toEqual([]);
    await context.close();
  });
});
