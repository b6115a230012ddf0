import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openContext, type PageOptions } from '../helpers/browser.js';
import type { TestServer, TestUser } from '../helpers/server.js';

/** Fixtures of the console's browser tests (tests/browser/admin-*.test.ts). */

export const SHOTS_DIR = '/tmp/shots';

export async function newPage(browser: Browser, server: TestServer, opts: PageOptions = {}) {
  const { context, errors } = await openContext(browser, server, opts);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page, errors };
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

export async function expectPath(page: Page, path: string | RegExp) {
  await expect
    .poll(() => new URL(page.url()).pathname, { timeout: 10_000 })
    .toSatisfy((p: string) => (typeof path === 'string' ? p === path || p === path.replace(/\/$/, '') : path.test(p)));
}

export const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]', { hasText: text });
export async function expectToast(page: Page, text: string | RegExp) {
  await expect.poll(() => toast(page, text).count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

/** A full-page screenshot for a person to look at: /tmp/shots/admin-<name>-<width>.png. */
export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.waitForLoadState('networkidle');
  // Let toasts fade and charts settle.
  await page.waitForTimeout(200);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS_DIR}/admin-${name}-${width}.png`, fullPage: true });
}

/** The newest set-password link mailed to this address, as the recipient got it: its path and query. */
export async function setPasswordPath(server: TestServer, email: string): Promise<string> {
  await server.deps.mailer.drain();
  const token = server.lastLinkToken(email);
  if (!token) throw new Error(`no set-password link in the mail to ${email}`);
  return `/reset-password?token=${encodeURIComponent(token)}`;
}

export const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' });
