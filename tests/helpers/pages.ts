import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openContext, type PageOptions } from './browser.js';
import type { TestServer, TestUser } from './server.js';

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
