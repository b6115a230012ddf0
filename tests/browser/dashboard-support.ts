import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createDietPlan } from '../../server/diet-plan/service.js';
import { assignSubscription } from '../../server/subscription/service.js';
import { type PageOptions, openContext } from '../helpers/browser.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { httpClient } from '../integration/feed-clients.js';

/** Shared fixtures of the dashboard and login browser tests. */

export type Client = TestUser & { fullName: string; height: number | null; weight: number | null };

let clientCounter = 0;

/** A client with a name, height and weight, as the login page would store them. */
export async function newClient(
  server: TestServer,
  opts: { firstName?: string; lastName?: string; heightM?: number; weightKg?: number } = {},
): Promise<Client> {
  clientCounter += 1;
  const firstName = opts.firstName ?? 'Asha';
  const lastName = opts.lastName ?? `Verma${clientCounter}`;
  const user = await server.user({ firstName, lastName, heightM: opts.heightM, weightKg: opts.weightKg });
  return { ...user, fullName: `${firstName} ${lastName}`, height: opts.heightM ?? null, weight: opts.weightKg ?? null };
}

/** A page signed in as `user`, with the page's console errors collected. */
export async function signedInPage(browser: Browser, server: TestServer, user: Client | null, opts: Omit<PageOptions, 'as'> = {}) {
  const { context, errors } = await openContext(browser, server, { ...opts, as: user ?? undefined });
  // Fail with a message instead of waiting for the test's own timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page, errors };
}

/** The typed API as an admin (dietitian) calls it. */
export async function adminApi(server: TestServer) {
  const admin = await server.user({ role: 'admin' });
  return httpClient(server.url, admin.token);
}

export const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]', { hasText: text });

export async function expectToast(page: Page, text: string | RegExp) {
  await expect.poll(() => toast(page, text).count(), { timeout: 10_000 }).toBeGreaterThan(0);
}

export async function expectPath(page: Page, path: string) {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe(path);
}

/** The smallest file the server accepts as a PDF. */
export const TINY_PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export async function addDietPlans(server: TestServer, clientId: number, months: number[]) {
  const ids: number[] = [];
  for (const m of months) {
    const mm = String(m).padStart(2, '0');
    const plan = await createDietPlan(server.deps.db, {
      clientId,
      title: `Plan ${mm}`,
      from: `2026-${mm}-01`,
      to: `2026-${mm}-28`,
      pdf: TINY_PDF,
    });
    ids.push(plan.id);
  }
  return ids;
}

export function addSubscription(server: TestServer, clientId: number, startDate: string, amountReceived = 16499) {
  return assignSubscription(server.deps.db, { clientId, planType: 'WL', planId: 'tier-lifestyle', startDate, amountReceived });
}

/** Screenshots for people to look at: /tmp/shots/<name>-<width>.png. */
export async function shoot(page: Page, name: string) {
  mkdirSync('/tmp/shots', { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: true });
}

/** Today as the browser's date input sees it (the machine's own time zone). */
export function localDay(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
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
