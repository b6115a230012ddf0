import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nutrientsIn, sumNutrients, type Total } from '../../server/nutrition/compute.js';
import { formatNutrient, HEADLINE_NUTRIENTS, type NutrientKey } from '../../server/nutrition/nutrients.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { callerFor } from '../helpers/callers.js';
import { seedFoods } from '../helpers/foods.js';
import { PLAN_FOODS } from '../helpers/plan-foods.js';
import { pdfText } from '../helpers/pdf.js';
import { expectPath, expectToast, screenshot, signedInPage, signInAsAdmin } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

/**
 * The plan builder adds up: a dietitian links a day's foods to the library, types household
 * quantities, and sees the meal's and the day's totals move against the client's targets with
 * every keystroke; the saved plan's PDF and REST answer agree with what the builder showed.
 */

const FOODS = PLAN_FOODS;

const TARGETS = { energyKcal: 1600, proteinG: 60, carbohydrateG: 220, fatG: 50, fibreG: 25, ironMg: 21 };
const SHOWN: NutrientKey[] = [...HEADLINE_NUTRIENTS, 'ironMg'];

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const sum = (...items: [keyof typeof FOODS, number][]): Total =>
  sumNutrients(items.map(([key, grams]) => nutrientsIn(FOODS[key].per100g, grams)));

/** What the day's panel prints for a nutrient ("20.3 g of 60 g"). */
const dayAmount = (page: Page, key: NutrientKey) => page.getByTestId('day-sums').locator(`[data-nutrient="${key}"]`).first();

async function link(item: Locator, _page: Page, search: string, name: string) {
  await item.getByRole('combobox', { name: 'Link to a food' }).fill(search);
  await item.getByRole('option', { name: new RegExp(name) }).click();
  await expect.poll(() => item.getByTestId('item-food').textContent()).toContain(name);
}

async function buildDay(page: Page, clientId: number, date: string) {
  await page.goto(`/admin/diet-plans/new?client=${clientId}&mode=compose`);
  await expectPath(page, '/admin/diet-plans/new');
  const form = page.getByTestId('compose-form');
  await form.getByLabel('From').fill(date);
  await form.getByLabel('To', { exact: true }).fill(date);
  // The blank day has four meals; keep Lunch (the third).
  for (const n of [4, 2, 1]) await form.getByRole('button', { name: `Remove meal ${n} of day 1` }).click();
  const meal = form.getByTestId('compose-meal');
  await expect.poll(() => meal.count()).toBe(1);
  expect(await meal.getByLabel('Meal', { exact: true }).inputValue()).toBe('Lunch');

  // Before any food is linked the day says how to make it add up.
  expect(await page.getByTestId('day-sums').textContent()).toContain('Link foods to the food library');

  const items = meal.getByTestId('compose-item');
  await link(items.nth(0), page, 'phulka', 'Plan test phulka');
  // Linked: the food's name is written in and its own measure chosen; 1 roti to start with.
  expect(await items.nth(0).getByLabel('Food', { exact: true }).inputValue()).toBe('Plan test phulka');
  expect(await items.nth(0).getByLabel('Unit', { exact: true }).inputValue()).toBe('roti');
  await expect
    .poll(() => dayAmount(page, 'proteinG').textContent())
    .toContain(formatNutrient('proteinG', sum(['roti', 35]).values.proteinG!));

  // Typing the quantity moves the totals at once (computed in the browser).
  await items.nth(0).getByLabel('Qty', { exact: true }).fill('2');
  await expect
    .poll(() => dayAmount(page, 'proteinG').textContent())
    .toContain(formatNutrient('proteinG', sum(['roti', 70]).values.proteinG!));

  await meal.getByRole('button', { name: 'Add a food' }).click();
  await link(items.nth(1), page, 'toor dal', 'Plan test toor dal');
  // A household quantity typed with its measure: "1½ katori" parses, then the dietitian settles on 1.
  await items.nth(1).getByLabel('Qty', { exact: true }).fill('1½ katori');
  expect(await items.nth(1).getByLabel('Unit', { exact: true }).inputValue()).toBe('katori');
  await expect
    .poll(() => dayAmount(page, 'proteinG').textContent())
    .toContain(formatNutrient('proteinG', sum(['roti', 70], ['dal', 225]).values.proteinG!));
  await items.nth(1).getByLabel('Qty', { exact: true }).fill('1');

  await meal.getByRole('button', { name: 'Add a food' }).click();
  await link(items.nth(2), page, 'chawal', 'Plan test rice');
  await items.nth(2).getByLabel('Qty', { exact: true }).fill('1 katori');

  const day = sum(['roti', 70], ['dal', 150], ['rice', 130]);
  for (const key of SHOWN) {
    await expect.poll(() => dayAmount(page, key).textContent()).toContain(formatNutrient(key, day.values[key]!));
    expect(await dayAmount(page, key).textContent()).toContain(formatNutrient(key, TARGETS[key as keyof typeof TARGETS]));
  }
  // The meal's line sums the same three foods.
  expect(await meal.getByTestId('meal-sums').textContent()).toContain(formatNutrient('energyKcal', day.values.energyKcal!));
  // Protein well below 80 % of its target: marked Under, in words.
  expect(await dayAmount(page, 'proteinG').getAttribute('data-standing')).toBe('under');
  expect(await dayAmount(page, 'proteinG').textContent()).toContain('Under');
  return day;
}

async function saveAndCheck(page: Page, day: Total, clientToken: string) {
  await page.getByLabel('Show daily totals in the PDF').check();
  await page.getByRole('button', { name: 'Save and render PDF' }).click();
  // A one-day plan for its one day, over no other plan: saved without asking.
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toMatch(/^\/admin\/diet-plans\/\d+$/);
  await expectToast(page, 'was rendered to PDF');
  // The plan's page in the console shows what the day adds up to, from the plan's read.
  await expect
    .poll(() => page.getByTestId('plan-day-total').textContent(), { timeout: 10_000 })
    .toContain(formatNutrient('energyKcal', day.values.energyKcal!));
  const id = Number(new URL(page.url()).pathname.split('/').pop());

  const rest = await server.request('GET', `/api/diet-plans/${id}`, { token: clientToken });
  expect(rest.status).toBe(200);
  const total = rest.body.data.days[0].total;
  for (const key of SHOWN) expect(total.values[key]).toBeCloseTo(day.values[key]!, 1);

  const pdf = new Uint8Array(await (await fetch(new URL(rest.body.data.pdfURL, server.url))).arrayBuffer());
  const text = pdfText(pdf).replace(/\s+/g, ' ');
  for (const key of SHOWN) expect(text).toContain(formatNutrient(key, day.values[key]!));
}

describe('the plan builder', () => {
  it('adds up a day of 2 roti, 1 katori dal and 1 katori rice as the dietitian types, at 1440 and 375 px', async () => {
    await seedFoods(server.deps.db, FOODS);
    const dietitian = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const client = await server.user({ firstName: 'Kavya', lastName: 'Menon' });
    await (await callerFor(server, dietitian.token)).nutritionTargets.set({ clientId: client.id, targets: TARGETS, showNumbers: true });

    for (const [viewport, date] of [
      [DESKTOP, '2026-12-07'],
      [PHONE, '2026-12-08'],
    ] as const) {
      const { context, page, errors } = await signedInPage(browser, server, null, { viewport });
      await signInAsAdmin(page, dietitian);
      const day = await buildDay(page, client.id, date);
      await screenshot(page, 'plan-builder');
      // Nothing spills sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await saveAndCheck(page, day, client.token);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
