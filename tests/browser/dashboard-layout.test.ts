import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { httpClient } from '../helpers/callers.js';
import { addDietPlans, addSubscription, adminApi, type Client, localDay, newClient } from '../helpers/fixtures.js';
import { animationsFinished, screenshot, signedInPage } from '../helpers/pages.js';
import { seriousAxeViolations } from '../helpers/public-site.js';

let server: TestServer;
let browser: Browser;
let client: Client;

/** Every dashboard screen with realistic data, at a phone's and a desktop's width. */
const SCREENS = [
  ['/login', 'login', false],
  ['/reset-password?token=abc', 'reset-password', false],
  ['/platform-guide', 'platform-guide', true],
  ['/dashboard/feeds', 'dash-feeds', true],
  ['/dashboard/diet-plan', 'dash-diet-plans', true],
  ['/dashboard/update-weight', 'dash-update-weight', true],
  ['/dashboard/weight-history', 'dash-weight-history', true],
  ['/dashboard/write-review', 'dash-write-review', true],
  ['/dashboard/active-subscription', 'dash-active-subscription', true],
  ['/dashboard/check-bmi', 'dash-check-bmi', true],
] as const;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
  const admin = await adminApi(server);
  await admin.admin.feed.create.mutate({ desc: 'Welcome to your dashboard!\nYour dietitian posts tips and updates here.' });
  await admin.admin.feed.create.mutate({
    desc: 'Recipe of the week: moong dal chilla with mint chutney. High in protein, light on oil, ready in 15 minutes. Pair it with a bowl of curd for breakfast.',
  });
  client = await newClient(server, { firstName: 'Aishwarya', lastName: 'Venkataraman', heightM: 1.62, weightKg: 64 });
  await addDietPlans(server, client.id, [9, 10, 11]);
  await addSubscription(server, client.id, localDay(-20));
  const api = httpClient(server.url, client.token);
  for (const [weight, days] of [
    [67.2, 70],
    [66.1, 56],
    [65.8, 42],
    [65, 28],
    [64.4, 14],
    [64, 1],
  ] as const) {
    await api.weight.add.mutate({ weight, date: localDay(-days) });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

it.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])(
  'every screen fits the %s width without sideways scrolling or serious accessibility faults (screenshots in /tmp/shots)',
  async (_name, viewport) => {
    const signedIn = await signedInPage(browser, server, client, { viewport });
    const signedOut = await signedInPage(browser, server, null, { viewport });
    for (const [path, name, needsSession] of SCREENS) {
      const { page } = needsSession ? signedIn : signedOut;
      await page.goto(path);
      await expect.poll(() => page.locator('h1').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      await animationsFinished(page);
      expect.soft(await overflowX(page), `${path} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(0);
      expect.soft(await seriousAxeViolations(page), `${path} at ${viewport.width} px`).toEqual([]);
      await screenshot(page, name);
    }
    expect(signedIn.errors).toEqual([]);
    expect(signedOut.errors).toEqual([]);
    await signedIn.context.close();
    await signedOut.context.close();
  },
);
