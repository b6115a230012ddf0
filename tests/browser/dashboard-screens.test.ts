import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RATING_LABELS } from '../../server/rating/schema.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { httpClient } from '../helpers/callers.js';
import { addDietPlans, addSubscription, localDay, newClient } from '../helpers/fixtures.js';
import { cssOf, expectPath, expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const visible = (page: Page, text: string) => page.getByText(text, { exact: true }).isVisible();

describe('Write a Review', () => {
  it('needs a star, shows the ten half-star labels, and ends in the rated state', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/write-review');
    const comment = page.getByLabel('Comment (optional)');
    await expect.poll(() => comment.getAttribute('placeholder')).toBe('Share your thoughts with us');
    expect(await comment.evaluate((el) => el.getBoundingClientRect().height)).toBe(180);
    await screenshot(page, 'write-review');

    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => visible(page, 'Ratings are required')).toBe(true);
    await screenshot(page, 'write-review-error');

    // Hovering each half star shows its label.
    const stars = page.getByTestId('star-rating');
    const box = (await stars.boundingBox())!;
    const starWidth = (box.width - 8) / 5;
    const halfStar = (i: number) => ({ x: box.x + 4 + (i * starWidth) / 2 + starWidth / 4, y: box.y + box.height / 2 });
    for (let i = 0; i < 10; i++) {
      await page.mouse.move(halfStar(i).x, halfStar(i).y);
      await expect.poll(() => page.getByTestId('rating-label').textContent()).toBe(RATING_LABELS[i]);
    }
    // Clicking the left half of the fourth star gives 3.5 stars and clears the error.
    await page.mouse.click(halfStar(6).x, halfStar(6).y);
    await page.mouse.move(0, 0);
    await expect.poll(() => page.getByRole('radio', { name: '3.5 stars, Good' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('rating-label').textContent()).toBe('Good');
    await expect.poll(() => visible(page, 'Ratings are required')).toBe(false);
    // The keyboard works too: arrows move by half a star.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('rating-label').textContent()).toBe('Good+');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByRole('radio', { name: '3.5 stars, Good' }).isChecked()).toBe(true);
    await comment.fill('The weekly follow-ups keep me on track.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => visible(page, 'Rated Successfully')).toBe(true);
    expect(await visible(page, 'Thank you for your feedback. We greatly appreciate your time and input.')).toBe(true);
    const saved = await server.deps.db
      .selectFrom('ratings')
      .select(['half_stars', 'comment'])
      .where('user_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ half_stars: 7, comment: 'The weekly follow-ups keep me on track.' });

    // Coming back: already rated, so the page starts in the submitted state.
    await page.reload();
    await expect.poll(() => visible(page, 'Rated Successfully')).toBe(true);
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
    await screenshot(page, 'write-review-rated');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Check BMI', () => {
  it('computes BMI with 3 decimals, colours the category, and explains nonsense input', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/check-bmi');
    const height = page.getByLabel('Height (m)');
    const weight = page.getByLabel('Weight (kg)');
    await expect.poll(() => page.getByTestId('bmi-empty').isVisible()).toBe(true);
    expect(await page.getByTestId('bmi-gauge').count()).toBe(0);
    expect(await height.getAttribute('type')).toBe('number');
    expect(await weight.getAttribute('type')).toBe('text');

    await height.fill('1.70');
    expect(await page.getByTestId('bmi-gauge').count()).toBe(0);
    await weight.fill('70');
    await expect.poll(() => page.getByTestId('bmi-value').textContent()).toBe('24.221');
    expect(await page.getByTestId('bmi-category').textContent()).toBe('Healthy Weight');
    expect(await page.getByTestId('bmi-category').evaluate((el) => getComputedStyle(el).color)).toBe(
      await cssOf(page, 'text-green-700', 'color'),
    );
    const angle = Number(await page.getByTestId('bmi-gauge').getAttribute('data-angle'));
    expect(angle).toBeGreaterThan(-110);
    expect(angle).toBeLessThan(110);
    await screenshot(page, 'check-bmi');

    await weight.fill('95');
    await expect.poll(() => page.getByTestId('bmi-category').textContent()).toBe('Obesity');
    expect(await page.getByTestId('bmi-value').textContent()).toBe('32.872');
    expect(await page.getByTestId('bmi-category').evaluate((el) => getComputedStyle(el).color)).toBe(
      await cssOf(page, 'text-red-700', 'color'),
    );
    await weight.fill('50');
    await expect.poll(() => page.getByTestId('bmi-category').textContent()).toBe('Underweight');
    await weight.fill('80');
    await expect.poll(() => page.getByTestId('bmi-category').textContent()).toBe('Overweight');

    await height.fill('170');
    await expect.poll(() => visible(page, 'Height is in metres: did you mean 1.70 m?')).toBe(true);
    expect(await page.getByTestId('bmi-gauge').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toMatch(/NaN|Infinity/);
    await height.fill('0');
    await expect.poll(() => visible(page, 'Height must be more than 0 m.')).toBe(true);
    await height.fill('1.7');
    await weight.fill('seventy');
    await expect.poll(() => visible(page, 'Enter your weight in kilograms as a number, e.g. 70.')).toBe(true);
    expect(await weight.getAttribute('aria-invalid')).toBe('true');
    await weight.fill('');
    await expect.poll(() => page.getByTestId('bmi-empty').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('My Diet Plans', () => {
  it("says 'No updated plans!' without plans", async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/dashboard/diet-plan');
    await expect.poll(() => page.getByTestId('plans-empty').textContent()).toContain('No updated plans!');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages 10 / 25 / 100 at a time and opens the PDF in a new tab', async () => {
    const client = await newClient(server);
    const other = await newClient(server);
    await addDietPlans(server, client.id, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    await addDietPlans(server, other.id, [1]);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/diet-plan');
    const table = page.getByTestId('plans-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);
    expect(await table.locator('thead th').allTextContents()).toEqual(['ID', 'FROM', 'TO', 'DIET PLAN']);
    expect(await page.getByTestId('plans-range').textContent()).toBe('1–10 of 12');
    expect(await page.getByLabel('Rows per page').locator('option').allTextContents()).toEqual(['10', '25', '100']);
    await screenshot(page, 'diet-plans');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('plans-range').textContent()).toBe('11–12 of 12');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByLabel('Rows per page').selectOption('25');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(12);
    expect(await page.getByTestId('plans-range').textContent()).toBe('1–12 of 12');

    const link = table.getByRole('link', { name: /^Download PDF/ }).first();
    expect(await link.getAttribute('target')).toBe('_blank');
    const [pdfTab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect.poll(() => pdfTab.url()).toContain('/api/diet-plan/pdf/');
    const url = pdfTab.url();
    // The signed link works without a bearer header...
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toContain('application/pdf');
    // ...and opens only this plan: another client's plan id under it is refused.
    const otherPlan = await server.deps.db
      .selectFrom('diet_plans')
      .select('id')
      .where('client_id', '=', other.id)
      .executeTakeFirstOrThrow();
    const forged = url.replace(/\/(\d+)(\?|\.pdf|$)/, `/${otherPlan.id}$2`);
    expect(forged).not.toBe(url);
    expect((await fetch(forged)).status).toBe(403);
    await pdfTab.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Update Weight and Weight History', () => {
  it('validates, saves a weight, resets the form and links to the history', async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/update-weight');
    const weight = page.getByLabel('Enter Weight (kg)');
    const date = page.getByLabel('Select Date');
    await expect.poll(() => weight.getAttribute('placeholder')).toBe('e.g., 70');
    expect(await date.getAttribute('type')).toBe('date');
    expect(await date.getAttribute('max')).toBe(localDay());
    // The date starts at today, so most weigh-ins need one field.
    expect(await date.inputValue()).toBe(localDay());

    await date.fill('');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => visible(page, 'Weight is required')).toBe(true);
    expect(await visible(page, 'Date is required')).toBe(true);
    const red = await cssOf(page, 'border border-red-600', 'borderColor');
    expect(await weight.evaluate((el) => getComputedStyle(el).borderColor)).toBe(red);
    expect(await date.evaluate((el) => getComputedStyle(el).borderColor)).toBe(red);
    await screenshot(page, 'update-weight-errors');

    await weight.fill('72.5');
    await date.fill(localDay(-1));
    await page.getByRole('button', { name: 'Update' }).click();
    await expectToast(page, 'Weight updated successfully!');
    await expect.poll(() => weight.inputValue()).toBe('');
    expect(await date.inputValue()).toBe(localDay());
    const rows = await server.deps.db.selectFrom('weights').select(['weight_kg', 'date']).where('client_id', '=', client.id).execute();
    expect(rows).toEqual([{ weight_kg: 72.5, date: localDay(-1) }]);

    await page.getByRole('link', { name: 'See Weight History' }).click();
    await expectPath(page, '/dashboard/weight-history');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'No weight history!' without entries", async () => {
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/weight-history');
    await expect.poll(() => page.getByTestId('weights-empty').textContent()).toContain('No weight history!');
    expect(await page.getByTestId('weight-chart').count()).toBe(0);
    await screenshot(page, 'weight-history-empty');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('charts the history with the latest BMI, removes an entry, and goes back', async () => {
    const client = await newClient(server, { heightM: 1.7, weightKg: 70 });
    const api = httpClient(server.url, client.token);
    for (const [weight, date] of [
      [74, '2026-09-01'],
      [72.4, '2026-10-01'],
      [70, '2026-11-01'],
    ] as const) {
      await api.weight.add.mutate({ weight, date });
    }
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/weight-history');
    const table = page.getByTestId('weights-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('thead th').allTextContents()).toEqual(['Weight (in kg)', 'Date', 'Action']);
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(['70', '72.4', '74']);
    expect(await page.getByTestId('weights-scroll').evaluate((el) => getComputedStyle(el).maxHeight)).toBe('520px');
    expect(await page.getByTestId('latest-bmi').textContent()).toBe('24.221');
    expect(await page.getByTestId('weight-chart').locator('circle').count()).toBe(3);
    expect(await page.getByTestId('weight-chart').getAttribute('aria-label')).toContain('from 74 kg');
    await screenshot(page, 'weight-history');

    // Remove asks first; keeping it changes nothing.
    await table.getByRole('button', { name: /^Remove 70 kg/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this weigh-in?' });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.textContent()).toContain('70 kg on 1 Nov 2026');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await table.locator('tbody tr').count()).toBe(3);
    await table.getByRole('button', { name: /^Remove 70 kg/ }).click();
    await screenshot(page, 'weight-history-confirm');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expectToast(page, 'Weight deleted successfully!');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    // The latest BMI follows the new latest entry (72.4 kg).
    await expect.poll(() => page.getByTestId('latest-bmi').textContent()).toBe('25.052');

    await page.getByRole('link', { name: 'Update Weight' }).first().click();
    await expectPath(page, '/dashboard/update-weight');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Active Subscription', () => {
  it('shows the empty text without a running plan', async () => {
    const client = await newClient(server);
    await addSubscription(server, client.id, '2020-01-01'); // long expired
    const { context, page, errors } = await signedInPage(browser, server, client);
    await page.goto('/dashboard/active-subscription');
    await expect.poll(() => page.getByTestId('subscription-empty').textContent()).toContain('You currently have no active subscription.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the running plan with prices in rupees and its dates', async () => {
    const client = await newClient(server);
    const sub = await addSubscription(server, client.id, localDay(-10), 16499);
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/active-subscription');
      const card = page.getByTestId('subscription-card');
      await expect.poll(() => card.isVisible()).toBe(true);
      const pairs = await card
        .locator('> div')
        .evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]));
      expect(pairs.map(([k]) => k)).toEqual(['Plan Type', 'Plan Price', 'Amount Paid', 'Start Date', 'End Date', 'Status']);
      const value = Object.fromEntries(pairs);
      expect(value['Plan Type']).toBe('Weight Loss Plan');
      expect(value['Plan Price']).toBe(`₹${sub.planId_fk.planMRP.toLocaleString('en-IN')}`);
      expect(value['Amount Paid']).toBe('₹16,499');
      expect(value['Start Date']).toMatch(/\d{4}/);
      expect(value['End Date']).toMatch(/\d{4}/);
      expect(value.Status).toBe('Active');
      await screenshot(page, 'active-subscription');
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
