import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { assignSubscription } from '../../server/subscription/service.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { expectPath, nav, newPage, screenshot, signInAsAdmin, sharedPage } from '../helpers/pages.js';

/**
 * The signed-in areas as a person sees them at 375 and 1440 px: one
 * content width per area, so titles never jump between pages; console tables become
 * stacked cards on a phone with Status and the actions on screen, and the plan
 * composer's time fields show "07:30 AM" whole, Meal under Time on a phone,
 * each error on its own line. Screenshots (with SHOTS_DIR set): admin-*-{375,1440}.png.
 */
let server: TestServer;
let browser: Browser;
let admin: TestUser;
let client: TestUser;
let page: Page;
let errors: string[];
sharedPage({ viewport: DESKTOP }, async (shared) => {
  ({ server, browser, page, errors } = shared);
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  client = await server.user({ firstName: 'Priya', lastName: 'Nair' });
  await assignSubscription(server.deps.db, {
    clientId: client.id,
    planType: 'DP',
    planId: 'tier-pcod',
    startDate: '2026-11-01',
    amountReceived: 2125,
  });
});

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
};
/** Inside the viewport's width: seen without scrolling sideways. */
const withinWidth = (b: Box, width: number) => b.x >= 0 && b.x + b.width <= width;
let signedIn = false;
/** Signs in once, in whichever test runs first (expect.poll needs a test). */
async function ensureSignedIn() {
  if (signedIn) return;
  await page.setViewportSize(DESKTOP);
  await signInAsAdmin(page, admin);
  signedIn = true;
}
const pageScrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Where each page's title starts and how wide the area's content is. */
async function titleAndWidth(p: Page, area: 'admin' | 'dashboard', path: string) {
  await p.goto(path);
  const title = p.getByRole('heading', { level: 1 });
  await expect.poll(() => title.count()).toBe(1);
  const [titleBox, contentBox] = await Promise.all([box(title), box(p.getByTestId(`${area}-content`))]);
  return { path, titleX: titleBox.x, contentX: contentBox.x, contentWidth: contentBox.width };
}

describe('one content width per area', () => {
  it('starts every title at the same x, in the console and in the dashboard', async () => {
    await ensureSignedIn();
    const consolePages = [
      '/admin',
      '/admin/clients',
      `/admin/clients/${client.id}`,
      '/admin/subscriptions',
      '/admin/diet-plans',
      `/admin/diet-plans/new?client=${client.id}`,
      '/admin/support',
      '/admin/audit',
    ];
    const seen = [];
    for (const path of consolePages) seen.push(await titleAndWidth(page, 'admin', path));
    for (const s of seen) expect({ ...s, path: '' }).toEqual({ ...seen[0], path: '' });

    const { context, page: clientPage, errors: clientErrors } = await newPage(browser, server, { viewport: DESKTOP, as: client });
    const dashboardPages = [
      'feeds',
      'diet-plan',
      'update-weight',
      'weight-history',
      'write-review',
      'active-subscription',
      'check-bmi',
      'profile',
    ];
    const dash = [];
    for (const path of dashboardPages) dash.push(await titleAndWidth(clientPage, 'dashboard', `/dashboard/${path}`));
    for (const s of dash) expect({ ...s, path: '' }).toEqual({ ...dash[0], path: '' });
    // A narrowed page's actions end where its content ends (the feed is max-w-2xl, 672 px), not across the page.
    await clientPage.goto('/dashboard/feeds');
    const live = await box(clientPage.getByTestId('live-state'));
    expect(live.x + live.width).toBeLessThanOrEqual(dash[0]!.contentX + 672 + 1);
    expect(live.x + live.width).toBeGreaterThan(dash[0]!.contentX + 672 - 8);
    expect(clientErrors).toEqual([]);
    await context.close();
  });
});

describe('console overview on a phone', () => {
  it('gives the odd last figure the whole row instead of half of it beside a gap, and dates the chart as everywhere else', async () => {
    await ensureSignedIn();
    await page.setViewportSize(PHONE);
    await page.goto('/admin');
    const stats = page.getByTestId('overview-stats');
    await expect.poll(() => stats.locator('a').count()).toBe(5);
    const [grid, last] = await Promise.all([box(stats), box(stats.locator('a').last())]);
    expect(Math.abs(last.width - grid.width)).toBeLessThan(1);
    expect(await pageScrollsSideways()).toBe(false);
    // The chart's days in the product's one format (24 Nov), not the browser's (Nov 24).
    const days = await page.getByTestId('visits-bar').locator('text').allTextContents();
    expect(days.length).toBeGreaterThan(1);
    for (const day of days) expect(day).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
    await screenshot(page, 'admin-overview');
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
  });
});

describe('console tables on a phone', () => {
  it('stack each row as a card with Status and the actions on screen', async () => {
    await ensureSignedIn();
    await page.setViewportSize(PHONE);
    await page.goto('/admin/subscriptions');
    const rows = page.getByTestId('subscription-rows');
    await expect.poll(() => rows.textContent()).toContain('Priya Nair');
    const row = rows.locator('tr').first();
    const status = row.getByText('Active', { exact: true });
    const renew = row.getByRole('button', { name: 'Renew' });
    const expire = row.getByRole('button', { name: 'Expire' });
    for (const target of [status, renew, expire]) {
      expect(withinWidth(await box(target), PHONE.width)).toBe(true);
    }
    // Each cell is a labelled line, the headings are still read out, and nothing scrolls sideways.
    expect(await row.locator('td[data-label="Status"]').evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"Status"');
    expect(await page.getByRole('columnheader', { name: 'Status' }).count()).toBe(1);
    expect(await pageScrollsSideways()).toBe(false);
    const scroller = rows.locator('xpath=ancestor::div[1]');
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // The period reads "1 Nov 2026 – 28 Nov 2026": a "4 Weeks" plan lasts 28 days.
    expect(await row.locator('td[data-label="Period"]').textContent()).toContain('1 Nov 2026 – 28 Nov 2026');
    await screenshot(page, 'admin-subscriptions-cards');

    for (const [link, testId, name] of [['Clients', 'clients-rows', 'clients-cards']] as const) {
      await page.getByRole('button', { name: 'Expand navigation' }).click();
      await nav(page, link);
      await expect.poll(() => page.getByTestId(testId).locator('tr').count()).toBeGreaterThan(0);
      expect(await pageScrollsSideways()).toBe(false);
      await screenshot(page, `admin-${name}`);
    }
    const clientRow = page.getByTestId('clients-rows').locator('tr').first();
    expect(withinWidth(await box(clientRow.getByText('Active', { exact: true })), PHONE.width)).toBe(true);

    // On a desktop it is a table again, one row per line.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => clientRow.evaluate((el) => getComputedStyle(el).display)).toBe('table-row');
    expect(await page.getByRole('columnheader', { name: 'Status' }).isVisible()).toBe(true);
    await screenshot(page, 'admin-clients-table');
    expect(errors).toEqual([]);
  });
});

describe('the plan composer', () => {
  /** The room inside a time field against the width "07:30 AM" needs in its own font, plus the clock button. */
  const timeFieldRoom = (field: Locator) =>
    field.evaluate((el) => {
      const css = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const inner = el.clientWidth - Number.parseFloat(css.paddingLeft) - Number.parseFloat(css.paddingRight);
      return inner - ctx.measureText('07:30 AM').width;
    });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows "07:30 AM" whole at ${viewport.width} px, Meal under Time on a phone, and each error on its own line`, async () => {
      await ensureSignedIn();
      await page.setViewportSize(viewport);
      await page.goto(`/admin/diet-plans/new?client=${client.id}&mode=compose`);
      await expectPath(page, '/admin/diet-plans/new');
      const meal = page.getByTestId('compose-meal').first();
      const time = meal.getByLabel('Time', { exact: true });
      await expect.poll(() => time.inputValue()).toBe('07:30');
      // The clock button and the gap before it take about 30 px: the text needs more than that to spare.
      expect(await timeFieldRoom(time)).toBeGreaterThan(30);
      expect(withinWidth(await box(time), viewport.width)).toBe(true);

      const timeBox = await box(meal.getByTestId('compose-time'));
      const nameBox = await box(meal.getByTestId('compose-meal-name'));
      if (viewport === PHONE) expect(nameBox.y).toBeGreaterThanOrEqual(timeBox.y + timeBox.height);
      else expect(Math.abs(nameBox.y - timeBox.y)).toBeLessThan(2);

      // The mode chips are one control: as wide as its chips on a wide screen, not a grey bar across the
      // form; on a phone the last chip of each row reaches the row's end, so a wrapped chip is no loose label.
      const modes = page.getByRole('radiogroup', { name: 'How to make the plan' });
      const group = await box(modes);
      const chips = await Promise.all((await modes.getByRole('radio').all()).map(box));
      const right = (b: Box) => b.x + b.width;
      if (viewport === DESKTOP) expect(group.width).toBeLessThan(chips.reduce((sum, c) => sum + c.width, 0) + 24);
      for (const chip of chips) {
        const lastOfRow = !chips.some((c) => c !== chip && Math.abs(c.y - chip.y) < 2 && c.x > chip.x);
        if (lastOfRow) expect(right(group) - right(chip)).toBeLessThan(8);
      }
      await screenshot(page, 'admin-composer');

      // Errors: each on its own line under its row; the row's fields keep their line.
      const item = page.getByTestId('compose-item').first();
      await item.getByLabel('Food', { exact: true }).fill('');
      // Grams are optional (the katori is the portion): a blank quantity is the row's second error.
      await item.getByLabel('Grams', { exact: true }).fill('');
      await item.getByLabel('Qty', { exact: true }).fill('');
      await time.fill('');
      await page.getByRole('button', { name: /^Save/ }).click();
      const itemAlerts = item.getByRole('alert');
      await expect.poll(() => itemAlerts.count()).toBe(2);
      const [foodError, qtyError] = await itemAlerts.allTextContents();
      expect(foodError).toBe('Food is required');
      expect(qtyError).toBe('Qty: Quantity is required');
      // Measured in one go: the focus moving to the first field in error scrolls the page smoothly meanwhile.
      const [qtyBox, unitBox, gramsBox, firstError, secondError] = await item.evaluate((row) => {
        const rect = (el: Element | null | undefined) => {
          const r = el!.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        const field = (name: string) => row.querySelector(`[id$="-${name}"]:is(input, select)`);
        const alerts = row.querySelectorAll('[role="alert"]');
        return [rect(field('qty')), rect(field('unit')), rect(field('grams')), rect(alerts[0]), rect(alerts[1])];
      });
      const bottom = (b: Box) => b.y + b.height;
      expect(Math.abs(bottom(qtyBox) - bottom(unitBox))).toBeLessThan(2);
      if (viewport === DESKTOP) expect(Math.abs(bottom(qtyBox) - bottom(gramsBox))).toBeLessThan(2);
      expect(firstError.y).toBeGreaterThanOrEqual(bottom(gramsBox));
      expect(secondError.y).toBeGreaterThanOrEqual(bottom(firstError));
      // Each error line is as wide as the row, not squeezed into a narrow column.
      expect(firstError.width).toBeGreaterThan(gramsBox.width * 2);
      expect(await item.getByLabel('Qty', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await item.getByLabel('Grams', { exact: true }).getAttribute('aria-invalid')).toBeNull();
      const describedBy = await item.getByLabel('Food', { exact: true }).getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(foodError);
      expect(await meal.getByRole('alert').first().textContent()).toMatch(/^Time must be/);
      await screenshot(page, 'admin-composer-errors');
      expect(errors).toEqual([]);
    });
  }
});
