import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { noteFoodUse } from '../../server/nutrition/search.js';
import { newClient } from '../helpers/fixtures.js';
import { seedFoods, TEST_FOODS } from '../helpers/foods.js';
import { expectPath, expectToast, nav, screenshot, signedInPage, signInAsAdmin } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The test foods, written once for the file. */
let seeded: Promise<Record<keyof typeof TEST_FOODS, number>> | undefined;
const library = () => {
  seeded ??= seedFoods(server.deps.db, TEST_FOODS);
  return seeded;
};

describe('the console’s Foods screen', () => {
  it('a dietitian at 1440 px finds a food by a typo, edits its aliases and values, and adds a food; at 375 px the list stacks', async () => {
    const ids = await library();
    const dietitian = await server.user({ role: 'admin', firstName: 'Meera' });

    const { context, page } = await signedInPage(browser, server, null, { viewport: DESKTOP });
    await signInAsAdmin(page, dietitian);
    await nav(page, 'Foods');
    await expectPath(page, '/admin/foods');
    const list = page.getByTestId('foods-list');
    await page.getByLabel('Search foods').fill('panner');
    await expect.poll(() => list.locator('tr').first().textContent(), { timeout: 15_000 }).toContain('Paneer');
    // Key values per 100 g and the source beside the name.
    const paneer = list.locator('tr').first();
    expect(await paneer.textContent()).toContain('पनीर');
    expect(await paneer.textContent()).toContain('258 kcal');
    expect(await paneer.textContent()).toContain('18.9 g');
    expect(await paneer.textContent()).toContain('Clinic');
    await screenshot(page, 'foods-console-list');

    await paneer.getByRole('link', { name: 'Paneer' }).click();
    await expectPath(page, `/admin/foods/${ids.paneer}`);
    const form = page.getByTestId('food-form');
    await expect.poll(() => form.getByLabel(/^Other names/).inputValue(), { timeout: 10_000 }).toBe('cottage cheese');
    await form.getByLabel(/^Other names/).fill('cottage cheese\nchhena');
    await form.getByLabel('Iron (mg)', { exact: true }).fill('0.2');
    // A value that does not add up is caught before it is sent, in words.
    await form.getByLabel('Saturated fat (g)', { exact: true }).fill('25');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => page.getByTestId('food-form-problems').textContent())
      .toContain('Saturated fat (25 g) is more than total fat (19.8 g)');
    await form.getByLabel('Saturated fat (g)', { exact: true }).fill('12.3');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expectToast(page, 'Changes saved');
    await screenshot(page, 'foods-console-edit');
    const saved = await server.deps.db.selectFrom('foods').select('per_100g').where('id', '=', ids.paneer).executeTakeFirstOrThrow();
    expect(saved.per_100g).toMatchObject({ ironMg: 0.2, saturatedFatG: 12.3, proteinG: 18.9 });
    const audit = await server.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'food')
      .where('entity_id', '=', ids.paneer)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['food.updated']);

    await page.getByRole('link', { name: 'Foods', exact: true }).first().click();
    await page.getByRole('link', { name: 'Add a food' }).click();
    await expectPath(page, '/admin/foods/new');
    const add = page.getByTestId('food-form');
    await add.getByLabel('Name (English)').fill('Besan chilla');
    await add.getByLabel('Hindi name').fill('besan chilla');
    await add.getByLabel(/^Other names/).fill('gram flour pancake');
    await add.getByLabel('Food group').selectOption('dishes');
    await add.getByLabel('Energy (kcal)', { exact: true }).fill('190');
    await add.getByLabel('Protein (g)', { exact: true }).fill('9.5');
    await add.getByLabel('Carbohydrate (g)', { exact: true }).fill('22');
    await add.getByLabel('Fat (g)', { exact: true }).fill('7');
    await add.getByRole('button', { name: 'Add the food' }).click();
    await expect.poll(() => add.getByText('Hindi name must be written in Devanagari').isVisible()).toBe(true);
    await add.getByLabel('Hindi name').fill('बेसन चीला');
    await add.getByRole('button', { name: 'Add a portion' }).click();
    await add.getByLabel('Grams').fill('80');
    await add.getByRole('button', { name: 'Add the food' }).click();
    await expectToast(page, 'Besan chilla added');
    await expectPath(page, /^\/admin\/foods\/\d+$/);
    await context.close();

    const phone = await signedInPage(browser, server, null, { viewport: PHONE });
    await signInAsAdmin(phone.page, dietitian);
    await phone.page.goto('/admin/foods');
    await phone.page.getByLabel('Search foods').fill('चीला');
    const rows = phone.page.getByTestId('foods-list').locator('tr');
    await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('Besan chilla');
    expect(await rows.first().textContent()).toContain('190 kcal');
    // Each row is a card that fits the phone: nothing scrolls sideways.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone.page, 'foods-console-list');
    await phone.page.getByRole('link', { name: 'Besan chilla' }).click();
    await expect.poll(() => phone.page.getByTestId('food-form').getByLabel('Grams').inputValue(), { timeout: 10_000 }).toBe('80');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone.page, 'foods-console-edit');
    await phone.context.close();
  }, 240_000);
});

describe('the food picker', () => {
  it('on a phone with a 4× slower CPU: recent foods first, the list follows a key within 200 ms without waiting for the server, no request per key, picked by keyboard', async () => {
    const ids = await library();
    const client = await newClient(server, { firstName: 'Divya' });
    await noteFoodUse(server.deps.db, client.id, [ids.peas, ids.atta]);
    const { page } = await signedInPage(browser, server, client, { viewport: PHONE });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('foods.search')) searches.push(r.url());
    });
    await page.goto('/dashboard/journal');
    await expect.poll(() => page.getByTestId('journal-day-title').textContent(), { timeout: 20_000 }).toContain('Today');
    await page.getByTestId('add-meal').click();
    const dialog = page.getByRole('dialog', { name: 'Add a meal' });
    const picker = dialog.getByRole('combobox', { name: 'Add a food' });
    // The picker's own list (the dialog's selects have options too).
    const options = dialog.getByTestId('food-picker-results').getByRole('option');

    // Nothing typed: the person's own recent foods.
    await picker.focus();
    await expect
      .poll(() => options.allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('Wheat flour, atta'), expect.stringContaining('Peas, green')]);

    // Typing a word asks the server when typing pauses, not once per key.
    searches.length = 0;
    await picker.pressSequentially('pa', { delay: 40 });
    // Names starting with "pa" first (a word starting with it, "gram flour pancake", may follow).
    await expect
      .poll(async () => (await options.allTextContents()).slice(0, 2), { timeout: 15_000 })
      .toEqual([expect.stringContaining('Paneer'), expect.stringContaining('Palak paneer')]);
    expect(searches.length).toBeLessThanOrEqual(1);
    expect(await options.first().textContent()).toContain('पनीर');

    // The server holds its answer; the next key narrows the list in the browser at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/foods\.search/, async (route) => {
      await held;
      await route.continue();
    });
    await page.evaluate(() => {
      const w = window as unknown as { keyAt?: number; shownAt?: number };
      const box = document.querySelector('[role="dialog"] [role="combobox"]')!;
      box.addEventListener('keydown', () => {
        w.keyAt = performance.now();
      });
      new MutationObserver(() => {
        if (document.querySelectorAll('[role="dialog"] [role="option"]').length === 1) w.shownAt ??= performance.now();
      }).observe(document.querySelector('[role="dialog"] [role="listbox"]')!, { childList: true, subtree: true });
    });
    await picker.press('l');
    await expect.poll(() => options.allTextContents()).toEqual([expect.stringContaining('Palak paneer')]);
    const elapsed = await page.evaluate(() => {
      const w = window as unknown as { keyAt?: number; shownAt?: number };
      return w.shownAt! - w.keyAt!;
    });
    expect(elapsed).toBeLessThan(200);
    release();
    await page.unroute(/foods\.search/);

    // Arrow down and Enter pick the highlighted food; the field empties for the next one.
    await picker.press('ArrowDown');
    await picker.press('Enter');
    await expect.poll(() => dialog.getByLabel(/^Palak paneer/).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await picker.inputValue()).toBe('');
    await screenshot(page, 'food-picker-phone');
    await page.context().close();
  }, 240_000);
});
