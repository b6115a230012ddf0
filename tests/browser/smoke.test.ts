import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
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
