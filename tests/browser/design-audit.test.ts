import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { addDietPlans, newClient } from '../helpers/fixtures.js';
import { animationsFinished, cssOf, expectPath, newPage, screenshot, signedInPage, signInAsAdmin, toast } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

/**
 * What a designer's pass over the product found, as a person sees it at 375 and 1440 px: pager
 * arrows that cannot be used look it, clients see their plans' titles, and the plan composer shows
 * every problem on the first Save and asks before saving a plan that looks like a mistake.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** What an arrow shows: its colours and cursor, and its background while the pointer is on it. */
async function looks(page: Page, arrow: Locator) {
  const style = () =>
    arrow.evaluate((el) => {
      const css = getComputedStyle(el);
      return { color: css.color, borderColor: css.borderColor, background: css.backgroundColor, cursor: css.cursor };
    });
  // Colours change with a short transition: read them once it has ended.
  await animationsFinished(page);
  const resting = await style();
  await arrow.hover({ force: true });
  await animationsFinished(page);
  const hovered = await style();
  await page.mouse.move(0, 0);
  await animationsFinished(page);
  return { ...resting, hoverBackground: hovered.background };
}

async function expectDisabledLook(page: Page, arrow: Locator) {
  expect(await arrow.isDisabled()).toBe(true);
  const look = await looks(page, arrow);
  expect(look.cursor).toBe('not-allowed');
  expect(look.color).toBe(await cssOf(page, 'text-slate-400', 'color'));
  expect(look.borderColor).toBe(await cssOf(page, 'border-slate-200', 'borderColor'));
  // No hover highlight: nothing suggests it can be pressed.
  expect(look.hoverBackground).toBe(look.background);
}

describe('pager arrows', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`look disabled when they cannot be used, on My Diet Plans and in the console (${viewport.width} px)`, async () => {
      const client = await newClient(server);
      await addDietPlans(server, client.id, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/diet-plan');
      const previous = page.getByRole('button', { name: 'Previous page' });
      const next = page.getByRole('button', { name: 'Next page' });
      await expect.poll(() => page.getByTestId('plans-range').textContent()).toBe('1–10 of 12');
      await expectDisabledLook(page, previous);
      const enabled = await looks(page, next);
      expect(enabled.cursor).not.toBe('not-allowed');
      expect(enabled.color).toBe(await cssOf(page, 'text-brand-800', 'color'));
      expect(enabled.hoverBackground).not.toBe(enabled.background);
      await screenshot(page, 'pager-diet-plans');
      await next.click();
      await expect.poll(() => page.getByTestId('plans-range').textContent()).toBe('11–12 of 12');
      await expectDisabledLook(page, next);
      expect(errors).toEqual([]);
      await context.close();

      const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
      const console_ = await newPage(browser, server, { viewport });
      await signInAsAdmin(console_.page, admin);
      await console_.page.goto('/admin/diet-plans');
      await expect.poll(() => console_.page.getByTestId('pager-status').textContent()).toMatch(/^1–\d+ of \d+ plans$/);
      await expectDisabledLook(console_.page, console_.page.getByRole('button', { name: 'Previous page' }));
      await screenshot(console_.page, 'pager-console');
      expect(console_.errors).toEqual([]);
      await console_.context.close();
    });
  }
});

describe('My Diet Plans', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`names each plan by its title, keeping the spec's columns (${viewport.width} px)`, async () => {
      const client = await newClient(server);
      await addDietPlans(server, client.id, [3, 4]);
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/diet-plan');
      const titles = page.getByTestId('plan-title').filter({ visible: true });
      await expect.poll(() => titles.allTextContents()).toEqual(['Plan 04', 'Plan 03']);
      if (viewport === DESKTOP) {
        const table = page.getByTestId('plans-table');
        expect(await table.locator('thead th').allTextContents()).toEqual(['ID', 'FROM', 'TO', 'DIET PLAN']);
        expect(await table.locator('tbody tr').first().locator('td').last().textContent()).toContain('Plan 04');
      }
      expect(
        await page
          .getByRole('link', { name: /^Download PDF of “Plan 04”/ })
          .filter({ visible: true })
          .count(),
      ).toBe(1);
      await screenshot(page, 'diet-plans-titles');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('the plan composer', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`takes a katori without grams, shows every problem on the first Save, and asks before a one-day week (${viewport.width} px)`, async () => {
      const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
      const client = await newClient(server, { firstName: 'Priya', lastName: `Nair${viewport.width}` });
      const { context, page, errors } = await newPage(browser, server, { viewport });
      await signInAsAdmin(page, admin);
      await page.goto(`/admin/diet-plans/new?client=${client.id}&mode=compose`);
      await expectPath(page, '/admin/diet-plans/new');
      const items = page.getByTestId('compose-item');
      await expect.poll(() => items.count()).toBe(4);
      for (let i = 0; i < 4; i++)
        await items
          .nth(i)
          .getByLabel('Food', { exact: true })
          .fill(`Food ${i + 1}`);
      // Two problems at once: a blank quantity, and dates the wrong way round. Grams stay blank.
      await items.nth(0).getByLabel('Qty', { exact: true }).fill('');
      await page.getByLabel('From').fill('2027-01-07');
      await page.getByLabel('To', { exact: true }).fill('2027-01-01');
      const save = page.getByRole('button', { name: 'Save and render PDF' });
      await save.click();
      await expect.poll(() => page.getByText('Qty: Quantity is required').count()).toBe(1);
      expect(await page.getByText('The end date cannot be before the start date').count()).toBe(1);
      expect(await page.getByText('Give the portion in grams').count()).toBe(0);
      await screenshot(page, 'composer-first-submit');

      await items.nth(0).getByLabel('Qty', { exact: true }).fill('1');
      await page.getByLabel('From').fill('2027-01-01');
      await page.getByLabel('To', { exact: true }).fill('2027-01-07');
      await save.click();
      const dialog = page.getByRole('dialog', { name: 'Save this plan?' });
      await expect
        .poll(() => dialog.getByTestId('plan-warnings').textContent())
        .toBe(
          'This plan lists 1 day for a 7-day period (1 Jan 2027 – 7 Jan 2027): add the missing days or shorten the dates, unless the client is meant to repeat it.',
        );
      await screenshot(page, 'composer-warning');
      // Going back saves nothing.
      await dialog.getByRole('button', { name: 'Go back and edit' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      const stored = () => server.deps.db.selectFrom('diet_plans').select('id').where('client_id', '=', client.id).execute();
      expect(await stored()).toEqual([]);

      await save.click();
      await dialog.getByRole('button', { name: 'Save anyway' }).click();
      // The first plan this server renders starts its PDF worker: well over the usual 10 s on a busy machine.
      const saved = toast(page, '"Diet plan" was rendered to PDF and is now in the client’s diet plans.');
      await expect.poll(() => saved.count(), { timeout: 60_000 }).toBeGreaterThan(0);
      await expectPath(page, /^\/admin\/diet-plans\/\d+$/);
      expect(await stored()).toHaveLength(1);
      await expect.poll(() => page.getByTestId('plan-meals').textContent()).toContain('Food 1 — 1 katori');
      // The browser logs each held-back save (409) itself; nothing else went wrong.
      expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
      await context.close();
    });
  }
});

describe('Contact Us', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`refuses an address no reply can reach, under the field (${viewport.width} px)`, async () => {
      const { context, page, errors } = await newPage(browser, server, { viewport });
      await page.goto('/contact-us');
      await page.getByLabel('Name', { exact: true }).fill('Ravi');
      await page.getByLabel('Email', { exact: true }).fill('not-an-email');
      await page.getByLabel('Message', { exact: true }).fill('Do you have plans for teenagers?');
      await page.getByRole('button', { name: 'Send Message' }).click();
      await expect.poll(() => page.getByText('Enter a valid email address, like name@example.com').isVisible()).toBe(true);
      await screenshot(page, 'contact-invalid-email');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
