import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { intersectionSettled } from './pages.js';

/** Every public route, with the <h1> each must show. */
export const PUBLIC_ROUTES = [
  { path: '/', h1: 'Eat the food you love. Reach the health you want.' },
  { path: '/about-us', h1: 'Nutrition care that fits real lives' },
  { path: '/contact-us', h1: 'Contact Us' },
  { path: '/consult', h1: 'Book your consultation now!' },
  { path: '/faq', h1: 'Frequently Asked Questions' },
  { path: '/pricing-plans', h1: 'Pricing Plans' },
  { path: '/no-such-page', h1: "Oops! The page you're looking for doesn't exist." },
] as const;

/** What Chromium logs when a page arrives with HTTP 404, as unknown addresses now do (the only console error a 404 page may cause). */
export const DOCUMENT_404_ERROR = 'console.error: Failed to load resource: the server responded with a status of 404 (Not Found)';
export const isNotFoundPath = (path: string) => path === '/no-such-page';

const axeSource = readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * Runs axe-core on the page and returns its serious and critical violations,
 * one line each. The app's CSP allows only its own scripts, so axe is
 * evaluated through the DevTools protocol rather than added as a <script>.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The prefilled text of a WhatsApp click-to-chat link. */
export function chatText(href: string | null): string | null {
  if (!href) return null;
  const url = new URL(href);
  expect(url.origin).toBe('https://wa.me');
  return url.searchParams.get('text');
}

/** Asserts a link leaves the site safely: a new tab without an opener. */
export async function expectNewTab(link: Locator) {
  expect(await link.getAttribute('target')).toBe('_blank');
  expect((await link.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
}

/** Scrolls through the whole page so every on-scroll effect has run. */
export async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 500) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
    await intersectionSettled(page.locator('body'));
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

/** The message under a labelled field (the field's aria-describedby error). */
export async function fieldError(page: Page, label: string | RegExp): Promise<string | null> {
  const control = page.getByLabel(label, { exact: typeof label === 'string' });
  const id = await control.getAttribute('aria-describedby');
  if (!id) return null;
  return page.locator(`[id="${id}"]`).textContent();
}
