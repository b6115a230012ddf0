import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPPORT_REQUEST_RECEIVED } from '../../server/support/schema.js';
import { gotoBeforeHydration, openContext, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

/**
 * What a visitor on a phone meets before the page's JavaScript has attached: the prerendered page is on
 * screen for seconds on mobile data, and a tap or a submit in that moment must neither be lost nor put
 * what was typed into an address (decision 102).
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** A phone on mobile data (DevTools protocol): the CPU 4× slower, 300 ms round trips, 750 kbit/s. */
async function slowPhone(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  const bytesPerSecond = (750 * 1024) / 8;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 300,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
}

/**
 * Holds the page's scripts until the test has tapped. The slow network alone makes them take seconds;
 * holding them makes sure, on every run, that the tap lands on the prerendered page before the app attaches.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Every address the page asked for or showed: its requests and every navigation of its history. */
function addressesOf(page: Page) {
  const seen: string[] = [];
  page.on('request', (r) => seen.push(r.url()));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

/** The addresses that carry any of the typed values (as typed, or encoded in a query) or a password field. */
function leaks(addresses: string[], typed: string[]) {
  const forms = typed.flatMap((value) => [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]);
  return addresses.filter((url) => /password=/i.test(url) || forms.some((value) => url.includes(value)));
}

const appAttached = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');

async function phonePage() {
  const { context, errors } = await openContext(browser, server, { viewport: PHONE });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const seen = addressesOf(page);
  const release = await holdScripts(page);
  await slowPhone(page);
  return { context, page, errors, seen, release };
}

describe('the first tap on a prerendered page', () => {
  it('signs in at 375 px when Login is tapped as soon as the form shows, and no address ever carries the password', async () => {
    const client = await newClient(server, { firstName: 'Kavya', lastName: 'Iyer' });
    const { context, page, errors, seen, release } = await phonePage();
    await gotoBeforeHydration(page, '/login');
    const login = page.getByRole('button', { name: 'Login', exact: true });
    await login.waitFor();
    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill(client.password);
    await login.click();

    expect(leaks(seen, [client.password, client.email])).toEqual([]);
    // The tap landed on the prerendered page, which shows it is working on it.
    expect(await appAttached(page)).toBe(false);
    expect(await login.getAttribute('aria-busy')).toBe('true');
    await screenshot(page, 'first-tap-login-busy');

    release();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/dashboard/feeds');
    await expectToast(page, 'Welcome back, Kavya!');
    await expect.poll(() => page.getByTestId('dashboard-user-name').textContent(), { timeout: 15_000 }).toBe('Kavya Iyer');
    await screenshot(page, 'first-tap-login-after');
    expect(leaks([...seen, page.url()], [client.password, client.email])).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const { path, tap, opens } of [
    { path: '/about-us', tap: 'Open menu', opens: (page: Page) => page.getByRole('navigation', { name: 'Main menu' }) },
    { path: '/consult', tap: 'Book now', opens: (page: Page) => page.getByRole('dialog', { name: 'Schedule Your Consultation' }) },
  ]) {
    it(`keeps a tap on ${tap} (${path}) made before the app attaches, and carries it out once it has`, async () => {
      const { context, page, errors, release } = await phonePage();
      await gotoBeforeHydration(page, path);
      const button = page.getByRole('button', { name: tap, exact: true });
      await button.click();
      // The same element afterwards, when what it opened hides it from the accessibility tree.
      const tapped = await button.elementHandle();
      expect(await appAttached(page)).toBe(false);
      expect(await tapped!.getAttribute('aria-busy')).toBe('true');
      await screenshot(page, `first-tap-${tap.toLowerCase().replace(' ', '-')}-busy`);

      release();
      await opens(page).waitFor({ timeout: 30_000 });
      expect(await appAttached(page)).toBe(true);
      expect(await tapped!.getAttribute('aria-busy')).toBeNull();
      expect(await tapped!.getAttribute('class')).not.toContain('tap-held');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('sends a Contact Us message submitted before the app attaches once, with what was typed, and never in an address', async () => {
    const { context, page, errors, seen, release } = await phonePage();
    const message = `Is the 3 month plan vegetarian? (sent at ${Date.now()})`;
    await gotoBeforeHydration(page, '/contact-us');
    const send = page.getByRole('button', { name: 'Send Message' });
    await page.getByLabel('Name', { exact: true }).fill('Rohini Das');
    await page.getByLabel('Email', { exact: true }).fill('rohini@example.test');
    await page.getByLabel('Message', { exact: true }).fill(message);
    // Tapped twice while waiting: one message.
    await send.click();
    await send.click();
    expect(await appAttached(page)).toBe(false);
    expect(await send.getAttribute('aria-busy')).toBe('true');
    expect(leaks(seen, [message, 'rohini@example.test'])).toEqual([]);

    release();
    await expect.poll(() => page.getByText(SUPPORT_REQUEST_RECEIVED).isVisible(), { timeout: 30_000 }).toBe(true);
    const rows = await server.deps.db.selectFrom('support_requests').selectAll().where('email', '=', 'rohini@example.test').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Rohini Das', message });
    expect(leaks([...seen, page.url()], [message, 'rohini@example.test'])).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a prerendered page whose JavaScript never runs', () => {
  it('posts the login form to its own page, which sends the visitor back to it: the password never reaches an address', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    const seen = addressesOf(page);
    const methods: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) methods.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill('nojs@example.test');
    await page.getByLabel('Password', { exact: true }).fill('a password of mine');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => methods).toEqual(['GET /login', 'POST /login', 'GET /login']);
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(leaks([...seen, page.url()], ['a password of mine', 'nojs@example.test'])).toEqual([]);
    await context.close();
  });
});
