import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, openContext, type PageOptions } from './browser.js';
import { startTestServer, type TestServer, type TestUser } from './server.js';

/** Pages of the browser tests, and the assertions they share: where the page is, which toast shows. */

/**
 * A fresh page on the test server, signed in when `opts.as` is given (the
 * session stored exactly as the login page stores it), with its console errors
 * collected. A locator that finds nothing fails in 10 s with a message instead
 * of waiting for the test's own timeout.
 */
export async function newPage(browser: Browser, server: TestServer, opts: PageOptions = {}) {
  const { context, errors } = await openContext(browser, server, opts);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page, errors };
}

/** What a file's shared page gives its tests (sharedPage). */
export type SharedPage = { server: TestServer; browser: Browser; page: Page; errors: string[] };

/**
 * One server serving the built client, one browser and one page (opened with
 * `opts`), shared by a file's tests: started before them, `ready` called to
 * take the pieces and seed data, everything closed after them.
 */
export function sharedPage(opts: PageOptions, ready: (shared: SharedPage) => Promise<void> | void) {
  let shared: SharedPage | undefined;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
    close = async () => {
      await browser.close();
      await server.stop();
    };
    const opened = await newPage(browser, server, opts);
    shared = { server, browser, page: opened.page, errors: opened.errors };
    await ready(shared);
  });
  afterAll(async () => {
    await shared?.page.context().close();
    await close?.();
  });
}

/** A page signed in as `user` (or signed out for null). */
export function signedInPage(browser: Browser, server: TestServer, user: PageOptions['as'] | null, opts: Omit<PageOptions, 'as'> = {}) {
  return newPage(browser, server, { ...opts, as: user ?? undefined });
}

/** Signs in through the console's own sign-in page (role 1, password encrypted in the page). */
export async function signInAsAdmin(page: Page, admin: TestUser) {
  await page.goto('/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectPath(page, '/admin/');
  await expect.poll(() => page.getByTestId('admin-user-name').textContent()).not.toBe('');
}

/** Follows a link of the console's drawer. */
export async function nav(page: Page, title: string) {
  await page.getByTestId('admin-drawer').getByRole('link', { name: title, exact: true }).click();
}

/** Waits until the page is at `path` (a trailing slash is optional), or at a path matching the pattern. */
export async function expectPath(page: Page, path: string | RegExp) {
  await expect
    .poll(() => new URL(page.url()).pathname, { timeout: 10_000 })
    .toSatisfy((p: string) => (typeof path === 'string' ? p === path || p === path.replace(/\/$/, '') : path.test(p)));
}

export const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]', { hasText: text });

/** Closes every toast on the page with its close button, as a person clears them off the page's actions. */
export async function closeToasts(page: Page) {
  const close = page.locator('[data-sonner-toast] [data-close-button]');
  await expect
    .poll(
      async () => {
        if ((await close.count()) > 0)
          await close
            .first()
            .click({ timeout: 2_000 })
            .catch(() => {});
        return close.count();
      },
      { timeout: 20_000 },
    )
    .toBe(0);
}

/** Waits until a toast with this text shows. */
export async function expectToast(page: Page, text: string | RegExp) {
  await expect.poll(() => toast(page, text).count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

/**
 * A full-page screenshot for a person to look at, only when SHOTS_DIR is set
 * (e.g. `SHOTS_DIR=/tmp/shots npx vitest run tests/browser`): `<SHOTS_DIR>/<name>-<width>.png`.
 * Tests never depend on it, so a run without screenshots tests the same thing.
 */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  // From the top: a full-page capture draws a sticky header where the page was scrolled to, mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
}

/** The computed value of a CSS property for a Tailwind class, to compare with what an element shows. */
export function cssOf(page: Page, className: string, property: 'color' | 'borderColor' | 'backgroundColor') {
  return page.evaluate(
    ([cls, prop]) => {
      const probe = document.createElement('div');
      probe.className = cls;
      document.body.append(probe);
      const value = getComputedStyle(probe)[prop];
      probe.remove();
      return value;
    },
    [className, property] as const,
  );
}

/**
 * Returns once a request the page makes now has been seen by the test, so any
 * request the page started before it (a refetch a timer fired, a load at start)
 * has been seen too: a "nothing was requested" check then means it.
 */
export async function requestBarrier(page: Page) {
  const marker = `/healthz?barrier=${Math.random().toString(36).slice(2)}`;
  await Promise.all([
    page.waitForRequest((r) => r.url().endsWith(marker)),
    page.evaluate(async (url) => {
      // Let work queued as a task (not only as a microtask) start its requests first.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await (await fetch(url)).text();
    }, marker),
  ]);
}

/** Waits until the web fonts have loaded and every finite CSS animation and transition has ended. */
export async function animationsFinished(page: Page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Waits until the page has handled where this element now is on screen: the
 * app's IntersectionObservers have been told (ours, made later, hears after
 * theirs) and React has rendered what they set.
 */
export async function intersectionSettled(locator: Locator) {
  await locator.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        const observer = new IntersectionObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(resolve, 0));
        });
        observer.observe(el);
      }),
  );
}

/** The query keys of the dashboard's offline record in IndexedDB (src/lib/offline-cache.ts), as stored. */
export function keptQueryKeys(page: Page): Promise<unknown[][]> {
  return page.evaluate(
    () =>
      new Promise<unknown[][]>((resolve) => {
        const req = indexedDB.open('poshan-offline');
        req.onerror = () => resolve([]);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('cache')) return resolve([]);
          const get = db.transaction('cache').objectStore('cache').get('queries');
          get.onsuccess = () => {
            const queries = (get.result?.state?.queries ?? []) as { queryKey: unknown[] }[];
            resolve(queries.map((q) => q.queryKey));
            db.close();
          };
          get.onerror = () => resolve([]);
        };
      }),
  );
}
