import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { addDietPlans, newClient } from '../helpers/fixtures.js';
import { requestBarrier, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

it('My Diet Plans refreshes its signed PDF links before they expire (15 min)', async () => {
  const client = await newClient(server);
  await addDietPlans(server, client.id, [1]);
  const { context, page, errors } = await signedInPage(browser, server, client);
  await page.clock.install();
  const listCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/trpc/') && r.url().includes('dietPlan.list')) listCalls.push(r.url());
  });
  await page.goto('/dashboard/diet-plan');
  const link = page.getByRole('link', { name: /Download PDF/ }).first();
  const firstHref = await link.getAttribute('href');
  expect(firstHref).toMatch(/\/api\/diet-plan\/pdf\/\d+\?exp=\d+&sig=/);
  const before = listCalls.length;

  // Nothing is refetched before ten minutes...
  await page.clock.fastForward('09:00');
  // A request the page makes now is seen after any refetch the fast-forward started.
  await requestBarrier(page);
  expect(listCalls.length).toBe(before);
  // ...and the list (with freshly signed links) is fetched again soon after.
  await page.clock.fastForward('01:01');
  await expect.poll(() => listCalls.length, { timeout: 10_000 }).toBeGreaterThan(before);
  await expect(link.getAttribute('href')).resolves.toMatch(/\/api\/diet-plan\/pdf\/\d+\?exp=\d+&sig=/);
  expect(errors).toEqual([]);
  await context.close();
});
