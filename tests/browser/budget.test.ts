import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DESKTOP, openContext } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/**
 * The JavaScript budget of the home page, in gzip bytes: everything the
 * page downloads on a first visit, including what scrolling to the bottom
 * loads. Raise it only with a reason (README, "Performance budget").
 */
export const HOME_JS_BUDGET_GZIP = 110_000;

/** Chunks that belong to the signed-in areas: a public page must never download them. */
const PRIVATE_CHUNK = /\/assets\/(DashboardArea|AdminArea)-[\w-]+\.js$/;

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Every JavaScript file the page downloads while `visit` runs, with its gzip size. */
async function scriptsLoaded(page: Page, visit: () => Promise<void>) {
  const pending: Promise<{ url: string; gzip: number }>[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (!url.startsWith(server.url) || !new URL(url).pathname.endsWith('.js')) return;
    pending.push(response.body().then((body) => ({ url, gzip: gzipSync(body, { level: 9 }).length })));
  });
  await visit();
  await page.waitForLoadState('networkidle');
  return Promise.all(pending);
}

it(`loads at most ${HOME_JS_BUDGET_GZIP} gzip bytes of JavaScript on the home page, and no dashboard code`, async () => {
  const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
  const page = await context.newPage();
  const scripts = await scriptsLoaded(page, async () => {
    await page.goto('/');
    await page.locator('h1').waitFor();
    // Scroll to the bottom too, so anything loaded on the way counts.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 600) await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
  });
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const report = scripts.map((s) => `${new URL(s.url).pathname} ${s.gzip}`).join('\n');
  console.info(`home page JavaScript: ${total} gzip bytes in ${scripts.length} files\n${report}`);
  expect(scripts.length).toBeGreaterThan(0);
  expect(total, report).toBeLessThanOrEqual(HOME_JS_BUDGET_GZIP);
  expect(scripts.filter((s) => PRIVATE_CHUNK.test(s.url)).map((s) => s.url)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('downloads the dashboard chunk only on a dashboard path (the check above can fail)', async () => {
  const user = await server.user();
  const { context } = await openContext(browser, server, { viewport: DESKTOP, as: user });
  const page = await context.newPage();
  const scripts = await scriptsLoaded(page, async () => {
    await page.goto('/dashboard/feeds');
  });
  expect(scripts.some((s) => /\/assets\/DashboardArea-[\w-]+\.js$/.test(s.url))).toBe(true);
  await context.close();
});

it('paints each public page before it asks for its JavaScript, with Inter preloaded and no stylesheet fetched twice (decision 062)', async () => {
  const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
  const page = await context.newPage();
  for (const route of ['/', '/faq', '/login']) {
    await page.goto(route);
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    const seen = await page.evaluate(async () => {
      await document.fonts.ready;
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const scripts = resources.filter((r) => /\/assets\/[\w-]+\.js$/.test(r.name)).map((r) => r.startTime);
      const font = resources.find((r) => /\/assets\/inter-text-wght-[\w-]+\.woff2$/.test(r.name));
      return {
        // Stylesheets are inline; one fetched later would be a second copy (scripts/build/prerender.ts).
        stylesheets: resources.filter((r) => r.name.endsWith('.css')).map((r) => r.name),
        fonts: resources.filter((r) => r.name.endsWith('.woff2')).length,
        paint,
        firstScript: Math.min(...scripts),
        fontBy: font?.initiatorType,
        inter: document.fonts.check('16px Inter') && [...document.fonts].some((f) => f.family === 'Inter' && f.status === 'loaded'),
      };
    });
    expect(seen.paint, `${route}: first contentful paint`).toBeLessThanOrEqual(seen.firstScript);
    expect(seen.fontBy, `${route}: the text font comes from the head's preload`).toBe('link');
    expect(seen.inter, `${route}: Inter loaded`).toBe(true);
    expect(seen.fonts, `${route}: only the text face of Inter`).toBe(1);
    expect(seen.stylesheets, `${route}: no stylesheet fetched`).toEqual([]);
  }
  expect(errors).toEqual([]);
  await context.close();
});
