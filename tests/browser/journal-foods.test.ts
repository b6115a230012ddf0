import type { Browser, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { newClient } from '../helpers/fixtures.js';
import { JOURNAL_TEST_FOODS, seedJournalFoods, setJournalTargets } from '../helpers/journal-foods.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { MEAL_QUEUED } from '../../src/features/dashboard/offline/queued.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const per100g = (key: keyof typeof JOURNAL_TEST_FOODS) => JOURNAL_TEST_FOODS[key].per100g as Record<string, number>;
/** The number a totals card shows for a nutrient ("23 g" → 23, "1,234 kcal" → 1234). */
const shown = async (totals: Locator, nutrient: string) =>
  Number(
    ((await totals.locator(`[data-nutrient="${nutrient}"]`).first().textContent()) ?? '')
      .match(/([\d,]+(?:\.\d+)?)\s*(g|kcal)/)?.[1]
      ?.replace(/,/g, ''),
  );

async function logLunch(page: import('playwright-core').Page) {
  await page.getByTestId('add-meal').click();
  const dialog = page.getByRole('dialog', { name: 'Add a meal' });
  await dialog.getByText('Lunch', { exact: true }).click();
  const picker = dialog.getByRole('combobox', { name: 'Add a food' });
  await picker.fill('Test roti');
  await dialog
    .getByRole('option', { name: /Test roti/ })
    .first()
    .click();
  await dialog.getByLabel(/^Test roti/).fill('2 roti');
  await picker.fill('Test arhar');
  await dialog
    .getByRole('option', { name: /Test arhar dal/ })
    .first()
    .click();
  await dialog.getByLabel(/^Test arhar dal/).fill('1½ katori');
  await expect.poll(() => dialog.getByTestId('meal-item-grams').allTextContents()).toEqual(['80 g', '225 g']);
  return dialog;
}

describe('a journal day that adds up', () => {
  it('a client at 375 px logs a meal with foods and sees the day’s totals equal its items; the dietitian at 1440 px estimates a text meal, live on the phone', async () => {
    await seedJournalFoods(server.deps.db);
    const client = await newClient(server, { firstName: 'Divya', lastName: 'Menon' });
    const dietitian = await server.user({ role: 'admin', firstName: 'Kavya', lastName: 'Rao' });
    await setJournalTargets(server.deps.db, client.id, { energyKcal: 1800, proteinG: 60, carbohydrateG: 250, fatG: 55, fibreG: 25 });

    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/journal');
    await expect.poll(() => phone.page.getByTestId('journal-day-title').textContent(), { timeout: 20_000 }).toContain('Today');
    const dialog = await logLunch(phone.page);
    // The meal adds up as it is written, before it is saved.
    await expect.poll(() => dialog.getByTestId('nutrient-totals-row').isVisible()).toBe(true);
    await screenshot(phone.page, 'journal-foods-form');
    await dialog.getByRole('button', { name: 'Log meal' }).click();

    const entry = phone.page.getByTestId('meal-entry').filter({ hasText: 'Test roti' });
    await expect.poll(() => entry.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await entry.getByTestId('meal-foods').textContent()).toMatch(/2 rotis Test roti.*80 g.*1½ katoris Test arhar dal.*225 g/);
    const totals = phone.page.getByTestId('journal-day-totals');
    await expect.poll(() => totals.isVisible(), { timeout: 15_000 }).toBe(true);
    const protein = (80 * per100g('roti').proteinG! + 225 * per100g('dal').proteinG!) / 100;
    const carbs = (80 * per100g('roti').carbohydrateG! + 225 * per100g('dal').carbohydrateG!) / 100;
    expect(Math.abs((await shown(totals, 'proteinG')) - protein)).toBeLessThan(0.1);
    expect(Math.abs((await shown(totals, 'carbohydrateG')) - carbs)).toBeLessThan(0.1);
    // The same numbers over REST.
    const day = (await server.request('GET', '/api/nutrition/days', { token: client.token })).body.data.at(-1);
    expect(Math.abs(day.totals.values.proteinG - protein)).toBeLessThan(0.1);
    await screenshot(phone.page, 'journal-foods-day');

    // A meal in words only; the dietitian adds its foods from the console.
    await phone.page.getByTestId('add-meal').click();
    const second = phone.page.getByRole('dialog', { name: 'Add a meal' });
    // The foods just logged are a tap away.
    await expect.poll(() => second.getByTestId('recent-foods').textContent(), { timeout: 10_000 }).toContain('Test roti');
    await second.getByText('Dinner', { exact: true }).click();
    await second.getByLabel('What did you eat?').fill('Rice with dal at a friend’s place');
    await second.getByRole('button', { name: 'Log meal' }).click();
    const dinner = phone.page.getByTestId('meal-entry').filter({ hasText: 'friend’s place' });
    await expect.poll(() => dinner.isVisible(), { timeout: 15_000 }).toBe(true);

    const desk = await signedInPage(browser, server, dietitian, { viewport: DESKTOP });
    await desk.page.goto(`/admin/clients/${client.id}`);
    const week = desk.page.getByTestId('week-intake');
    await expect.poll(() => week.locator('[data-nutrient="proteinG"]').isVisible(), { timeout: 20_000 }).toBe(true);
    const deskDinner = desk.page.getByTestId('client-journal').getByTestId('meal-entry').filter({ hasText: 'friend’s place' });
    await deskDinner.getByRole('button', { name: 'Estimate foods' }).click();
    const estimate = desk.page.getByRole('dialog', { name: /Foods of this dinner/ });
    await estimate.getByRole('combobox', { name: 'Add a food' }).fill('Test rice');
    await estimate
      .getByRole('option', { name: /Test rice/ })
      .first()
      .click();
    await expect.poll(() => estimate.getByTestId('meal-item-grams').allTextContents()).toEqual(['130 g']);
    await screenshot(desk.page, 'journal-foods-estimate');
    await estimate.getByRole('button', { name: 'Save foods' }).click();
    await expect.poll(() => deskDinner.getByTestId('meal-foods').textContent(), { timeout: 15_000 }).toContain('Test rice');
    await screenshot(desk.page, 'journal-foods-console');

    // Live on the phone: the estimate and the day's new totals arrive without a reload.
    await expect.poll(() => dinner.getByTestId('meal-foods').textContent(), { timeout: 20_000 }).toContain('estimated by your dietitian');
    const withRice = protein + (130 * per100g('rice').proteinG!) / 100;
    await expect.poll(async () => Math.abs((await shown(totals, 'proteinG')) - withRice) < 0.1, { timeout: 15_000 }).toBe(true);
    await phone.page.setViewportSize(DESKTOP);
    await screenshot(phone.page, 'journal-foods-day');
    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
  }, 300_000);

  it('a client whose dietitian keeps the numbers logs a meal with foods at 1440 px and sees the foods, never the totals', async () => {
    await seedJournalFoods(server.deps.db, 'hidden');
    const client = await newClient(server, { firstName: 'Meher', lastName: 'Kapoor' });
    await setJournalTargets(server.deps.db, client.id, { energyKcal: 1800, proteinG: 60 }, false);
    const desk = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await desk.page.goto('/dashboard/journal');
    await expect.poll(() => desk.page.getByTestId('journal-day-title').textContent(), { timeout: 20_000 }).toContain('Today');
    const dialog = await logLunch(desk.page);
    expect(await dialog.getByTestId('nutrient-totals-row').count()).toBe(0);
    // The food search names foods without counting them either.
    await dialog.getByRole('combobox', { name: 'Add a food' }).fill('Test');
    await expect.poll(() => dialog.getByRole('option').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await dialog.getByRole('listbox').textContent()).not.toMatch(/kcal|protein/i);
    await dialog.getByRole('heading', { name: 'Add a meal' }).click();
    await dialog.getByRole('button', { name: 'Log meal' }).click();
    const entry = desk.page.getByTestId('meal-entry').filter({ hasText: 'Test roti' });
    await expect.poll(() => entry.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await desk.page.getByTestId('journal-day-totals').count()).toBe(0);
    expect(await desk.page.getByTestId('nutrient-totals-row').count()).toBe(0);
    expect(await desk.page.locator('main').textContent()).not.toMatch(/kcal|protein/i);
    await screenshot(desk.page, 'journal-foods-hidden');
    await desk.page.setViewportSize(PHONE);
    await screenshot(desk.page, 'journal-foods-hidden');
    expect(desk.errors).toEqual([]);
  }, 300_000);

  it('a meal with foods logged at 375 px without a connection waits on the phone and is sent with its foods once back online', async () => {
    await seedJournalFoods(server.deps.db, 'offline');
    const client = await newClient(server, { firstName: 'Ira', lastName: 'Sen' });
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/journal');
    await expect.poll(() => page.getByTestId('journal-day-title').textContent(), { timeout: 20_000 }).toContain('Today');
    const dialog = await logLunch(page);
    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Log meal' }).click();
    await expectToast(page, MEAL_QUEUED);
    await expect.poll(() => page.getByTestId('waiting-item').count()).toBe(1);
    await context.setOffline(false);
    const stored = () =>
      server.deps.db
        .selectFrom('meal_entry_items as i')
        .innerJoin('meal_entries as e', 'e.id', 'i.entry_id')
        .select(['i.grams'])
        .where('e.client_id', '=', client.id)
        .orderBy('i.position')
        .execute();
    await expect.poll(async () => (await stored()).map((r) => r.grams), { timeout: 20_000 }).toEqual([80, 225]);
    await expect.poll(() => page.getByTestId('meal-entry').filter({ hasText: 'Test roti' }).count(), { timeout: 15_000 }).toBe(1);
    expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::/.test(e))).toEqual([]);
  }, 300_000);
});
