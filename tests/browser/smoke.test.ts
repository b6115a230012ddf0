import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, openContext, PHONE } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('serves the client shell and counts the visit', async () => {
  const { context, errors } = await openContext(browser, server, { viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/');
  await expect.poll(() => page.locator('h1').count()).toBeGreaterThan(0);
  await expect
    .poll(async () =>
      Number(
        (
          await server.deps.db
            .selectFrom('visits')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      ),
    )
    .toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});
