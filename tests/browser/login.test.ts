import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { newClient } from '../helpers/fixtures.js';
import { animationsFinished, cssOf, expectPath, expectToast, screenshot, signedInPage, toast } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const storage = (page: import('playwright-core').Page) =>
  page.evaluate(() => ({
    user: localStorage.getItem('user'),
    refresh: localStorage.getItem('refresh_user'),
    info: localStorage.getItem('info'),
  }));

describe('login', () => {
  it('signs in with an encrypted password, stores the session and opens the feeds', async () => {
    const client = await newClient(server, { firstName: 'Meena', lastName: 'Rao', heightM: 1.6, weightKg: 58 });
    const { context, page, errors } = await signedInPage(browser, server, null);
    const sentBodies: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('auth.signIn')) sentBodies.push(req.postData() ?? '');
    });
    await page.goto('/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Login' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('We provide personalised diet plans for a healthier lifestyle.').isVisible()).toBe(true);
    await screenshot(page, 'login');

    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill(client.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await expectToast(page, 'Welcome back, Meena!');
    await expectPath(page, '/dashboard/feeds');
    const stored = await storage(page);
    expect(stored.user).toBeTruthy();
    expect(stored.refresh).toBeTruthy();
    expect(JSON.parse(stored.info!)).toEqual({ id: client.id, fullName: 'Meena Rao', height: 1.6, weight: 58 });
    await expect.poll(() => page.getByTestId('dashboard-user-name').textContent()).toBe('Meena Rao');

    // The password never left the page in clear text; it went as enc:<kid>:<base64url>, with role 2.
    expect(sentBodies).toHaveLength(1);
    expect(sentBodies[0]).not.toContain(client.password);
    expect(sentBodies[0]).toMatch(/"password":"enc:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{300,}"/);
    expect(sentBodies[0]).toContain('"role":2');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`shows the welcome toast ${viewport === PHONE ? 'at the bottom above the tab bar' : 'top-right'}, clear of the page title, the menu button and the drawer's first link (${viewport.width} px)`, async () => {
      const client = await newClient(server, { firstName: 'Farah', lastName: 'Khan' });
      const { context, page, errors } = await signedInPage(browser, server, null, { viewport });
      await page.goto('/login');
      await page.getByLabel('Email').fill(client.email);
      await page.getByLabel('Password', { exact: true }).fill(client.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expectPath(page, '/dashboard/feeds');
      await expectToast(page, 'Welcome back, Farah!');
      await animationsFinished(page);
      const box = async (locator: import('playwright-core').Locator) => {
        const b = await locator.boundingBox();
        if (!b) throw new Error('not on screen');
        return b;
      };
      const welcome = await box(toast(page, 'Welcome back, Farah!'));
      const covered = (other: { x: number; y: number; width: number; height: number }) =>
        welcome.x < other.x + other.width &&
        other.x < welcome.x + welcome.width &&
        welcome.y < other.y + other.height &&
        other.y < welcome.y + welcome.height;
      // Against the right edge, wholly on screen: top-right on a wide screen, as the spec says; on a phone at
      // the bottom, where the thumb is, above the tab bar (64 px) and clear of the top bar's menu button.
      expect(welcome.x).toBeGreaterThanOrEqual(0);
      expect(viewport.width - (welcome.x + welcome.width)).toBeLessThanOrEqual(24);
      expect(viewport.width - (welcome.x + welcome.width)).toBeGreaterThanOrEqual(4);
      if (viewport === PHONE) {
        expect(welcome.y).toBeGreaterThan(viewport.height / 2);
        expect(welcome.y + welcome.height).toBeLessThanOrEqual(viewport.height - 64);
      } else expect(welcome.y).toBeLessThan(100);
      // The page title stays readable (the title's text, not its full-width block).
      const title = page.getByRole('heading', { level: 1, name: 'Feeds' });
      const titleText = await title.evaluate((h) => {
        const range = document.createRange();
        range.selectNodeContents(h);
        const r = range.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      expect(covered(titleText)).toBe(false);
      if (viewport === PHONE) {
        // Clear of the menu button: the drawer opens with the toast still up...
        const menu = page.getByRole('button', { name: /^Expand navigation/ });
        expect(covered(await box(menu))).toBe(false);
        await menu.click();
      } else {
        // ...and on a wide screen it sits below the bar, leaving the name and Sign out alone.
        expect(covered(await box(page.getByTestId('dashboard-user-name')))).toBe(false);
        expect(covered(await box(page.getByRole('button', { name: 'Sign out' })))).toBe(false);
      }
      // The drawer's first link is not under it.
      const firstLink = page.getByTestId('dashboard-drawer').getByRole('link').first();
      await expect.poll(() => firstLink.isVisible()).toBe(true);
      await animationsFinished(page);
      expect(covered(await box(firstLink))).toBe(false);
      expect(await toast(page, 'Welcome back, Farah!').count()).toBe(1);
      await screenshot(page, 'welcome-toast');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('shows each required message and the server message for wrong credentials', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, null, { viewport: PHONE });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByText('Email is required').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true);
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'login-errors');

    await page.getByLabel('Email').fill(client.email);
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectToast(page, 'Incorrect email or password.');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await storage(page)).user).toBeNull();
    // The failed sign-in is a 401 the browser logs as a failed resource; nothing else may go wrong.
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('tells a dietitian who signs in here that the console is at /admin', async () => {
    const dietitian = await server.user({ role: 'admin' });
    const { context, page, errors } = await signedInPage(browser, server, null, { viewport: PHONE });
    await page.goto('/login');
    await page.getByLabel('Email').fill(dietitian.email);
    await page.getByLabel('Password', { exact: true }).fill(dietitian.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectToast(page, 'This sign-in is for clients. Dietitians sign in to the console at /admin.');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await storage(page)).user).toBeNull();
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('sends a signed-in visitor straight to the feeds', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/login');
    await expectPath(page, '/dashboard/feeds');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('forgot password', () => {
  it('marks an empty email with a red border only, resets on outside click, and sends the request', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, null);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forgot password' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const email = dialog.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.evaluate((el) => getComputedStyle(el).borderColor)).toBe(await cssOf(page, 'border border-red-600', 'borderColor'));
    // Only the border: the message is for screen readers, not shown.
    const hidden = dialog.getByText('Email is required');
    expect(await hidden.evaluate((el) => el.getBoundingClientRect().width * el.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    await screenshot(page, 'login-forgot-password');

    await email.fill('typed@example.com');
    await page.mouse.click(5, 5); // outside the dialog
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Forgot password' }).getByLabel('Email').inputValue()).toBe('');

    await page.getByRole('dialog').getByLabel('Email').fill(client.email);
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'If an account exists for that email, we have sent a link to reset the password.');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets the password from the emailed link, then signs in with it', async () => {
    const client = await newClient(server, { firstName: 'Ravi' });
    const { context, page, errors } = await signedInPage(browser, server, null);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('dialog').getByLabel('Email').fill(client.email);
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'If an account exists');

    // The link as the client's mailbox receives it (the outbox keeps it hidden).
    await expect.poll(() => server.lastLinkToken(client.email)).not.toBeNull();
    await page.goto(`/reset-password?token=${encodeURIComponent(server.lastLinkToken(client.email)!)}`);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect.poll(() => page.getByText('Password must be at least 10 characters').isVisible()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm new password').fill('brand-new-typo');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect.poll(() => page.getByText('The two passwords do not match').isVisible()).toBe(true);
    await page.getByLabel('Confirm new password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expectToast(page, 'Your password has been changed.');
    await expectPath(page, '/login');

    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectPath(page, '/dashboard/feeds');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('explains a reset link without its token', async () => {
    const { context, page, errors } = await signedInPage(browser, server, null, { viewport: PHONE });
    await page.goto('/reset-password');
    await expect.poll(() => page.getByText('This link is missing its reset code.', { exact: false }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await expectPath(page, '/login');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('platform guide', () => {
  it('sends a signed-out visitor to / with the permission toast', async () => {
    const { context, page, errors } = await signedInPage(browser, server, null);
    await page.goto('/platform-guide');
    await expectPath(page, '/');
    await expectToast(page, 'You do not have the necessary permissions to access this page.');
    expect(errors).toEqual([]);
    await context.close();
  });
  // What a signed-in client sees is in platform-guide.test.ts.
});
