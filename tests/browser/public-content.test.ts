import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PLAN_TYPE_LABELS, PLANS, unlockPriceMessage } from '../../server/catalogue/plans.js';
import { formatRupees } from '../../src/lib/format.js';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { chatText, expectNewTab } from '../helpers/public-site.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/** The FAQ accordion and the pricing page. */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function open(path: string, viewport: { width: number; height: number } = DESKTOP) {
  const opened = await openContext(browser, server, { viewport });
  const page = await opened.context.newPage();
  await page.goto(path);
  await page.locator('h1').waitFor();
  return { ...opened, page };
}

describe('FAQ', () => {
  const expanded = (page: Page) =>
    page
      .getByTestId('faq')
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-expanded') === 'true'));

  it('opens one question at a time and carries every content point of the spec', async () => {
    const { context, page, errors } = await open('/faq');
    const questions = page.getByTestId('faq').getByRole('button');
    expect(await questions.count()).toBe(6);
    expect(await expanded(page)).toEqual([false, false, false, false, false, false]);

    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      await questions.nth(i).click();
      const state = await expanded(page);
      expect(state.filter(Boolean)).toHaveLength(1);
      expect(state[i]).toBe(true);
      answers.push((await page.getByTestId('faq').getByRole('region').textContent()) ?? '');
    }
    // Clicking the open question closes it.
    await questions.nth(5).click();
    expect(await expanded(page)).toEqual([false, false, false, false, false, false]);

    const all = answers.join(' ');
    const startingPrice = formatRupees(PLANS.find((p) => p.type === 'WL' && p.id === 'tier-kickstart')!.sellPrice);
    expect(startingPrice).toBe('₹1,849');
    expect(all).toContain(`start at ${startingPrice} per month`);
    expect(all).toContain('Easy EMI');
    expect(all).toMatch(/7-day free trial.*cancel your plan or change it, free of charge/);
    expect(all).toMatch(/can no longer be cancelled, but you can still ask for modifications/);
    expect(all).toMatch(/1-month plans.*twice a month.*longer plans, follow-ups are weekly/);
    expect(all).toContain('health webinars');
    expect(all).toMatch(/pause your plan.*resume it/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is keyboard operable', async () => {
    const { context, page, errors } = await open('/faq');
    const questions = page.getByTestId('faq').getByRole('button');
    const focused = (i: number) => questions.nth(i).evaluate((el) => el === document.activeElement);
    await questions.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await expanded(page))[0]).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(1)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => expanded(page)).toEqual([false, true, false, false, false, false]);
    await page.keyboard.press('End');
    await expect.poll(() => focused(5)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('uses two columns on wide screens and one on phones', async () => {
    for (const [viewport, columns] of [
      [DESKTOP, 2],
      [PHONE, 1],
    ] as const) {
      const { context, page } = await open('/faq', viewport);
      const lefts = await page
        .getByTestId('faq')
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().left)));
      expect(new Set(lefts).size, `${viewport.width} px`).toBe(columns);
      await context.close();
    }
  });
});

describe('pricing', () => {
  const cardNames = (page: Page) => page.getByTestId('plan-cards').locator('h3').allTextContents();

  async function chooseType(page: Page, label: string) {
    await page.getByTestId('plan-type').click();
    await page.getByRole('option', { name: label, exact: true }).click();
    await expect.poll(() => page.getByTestId('plan-type').textContent()).toBe(label);
  }

  it('defaults to Weight Loss with three cards, the 6-month one highlighted, the spec crossed-out features and no prices', async () => {
    const { context, page, errors } = await open('/pricing-plans');
    expect(await page.getByTestId('plan-type').textContent()).toBe('Weight Loss Plan');
    expect(await cardNames(page)).toEqual(['Weight Loss 1 Month', 'Weight Loss 6 Months', 'Weight Loss 1 Year']);
    const card = (id: string) => page.getByTestId(`plan-card-${id}`);
    expect(await card('tier-commitment').getAttribute('data-highlighted')).toBe('true');
    expect(await card('tier-kickstart').getAttribute('data-highlighted')).toBe('false');
    expect(await card('tier-lifestyle').getAttribute('data-highlighted')).toBe('false');

    const crossed = (id: string) =>
      card(id)
        .locator('del')
        .evaluateAll((dels) => dels.map((d) => d.lastChild?.textContent));
    expect(await crossed('tier-kickstart')).toEqual(['Video Call Support', 'Recipe Guide', 'Festive/Eating Out Guide']);
    expect(await crossed('tier-commitment')).toEqual(['Festive/Eating Out Guide']);
    expect(await crossed('tier-lifestyle')).toEqual([]);

    // No prices anywhere on the cards.
    const text = (await page.getByTestId('plan-cards').textContent()) ?? '';
    expect(text).not.toContain('₹');
    for (const plan of PLANS.filter((p) => p.type === 'WL')) {
      expect(text).not.toContain(plan.sellPrice.toLocaleString('en-IN'));
      expect(text).not.toContain(String(plan.sellPrice));
    }

    // 'Click to Unlock the Price' opens the spec's chat message in a new tab.
    const unlock = card('tier-commitment').getByRole('link', { name: /Click to Unlock the Price/ });
    await expectNewTab(unlock);
    expect(chatText(await unlock.getAttribute('href'))).toBe(
      "Hi! I'm interested in the Weight Loss 6 Months plan. Could you please share the pricing details?",
    );
    expect(unlockPriceMessage('Weight Loss 6 Months')).toBe(
      "Hi! I'm interested in the Weight Loss 6 Months plan. Could you please share the pricing details?",
    );

    // The note names Growth and Momentum and links to booking.
    const note = page.getByTestId('other-plans');
    expect(await note.textContent()).toMatch(/Growth \(3 Months\).*Momentum \(9 Months\)/);
    await note.getByRole('link', { name: 'Schedule a consultation' }).click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/consult?book=true');
    await expect.poll(() => page.getByRole('dialog', { name: 'Schedule Your Consultation' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches plan type from the dropdown: WG, DP and LP each show three cards', async () => {
    const { context, page, errors } = await open('/pricing-plans', PHONE);
    await page.getByTestId('plan-type').click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      PLAN_TYPE_LABELS.WL,
      PLAN_TYPE_LABELS.WG,
      PLAN_TYPE_LABELS.DP,
      PLAN_TYPE_LABELS.LP,
    ]);
    await page.keyboard.press('Escape');

    await chooseType(page, 'Weight Gain/Gym Plan');
    expect(await cardNames(page)).toEqual(['Weight Gain 1 Month', 'Weight Gain 6 Months', 'Weight Gain 1 Year']);
    expect(new URL(page.url()).search).toBe('?type=WG');
    expect(await page.getByTestId('plan-card-tier-commitment').getAttribute('data-highlighted')).toBe('true');

    await chooseType(page, 'Disease Management Plan');
    expect(await cardNames(page)).toEqual(['Thyroid Plan', 'PCOD/PCOS Plan', 'Diabetes Plan']);
    expect(await page.getByTestId('plan-card-tier-pcod').getAttribute('data-highlighted')).toBe('true');
    expect(chatText(await page.getByTestId('plan-card-tier-pcod').getByRole('link').getAttribute('href'))).toBe(
      "Hi! I'm interested in the PCOD/PCOS plan. Could you please share the pricing details?",
    );
    const dpNote = (await page.getByTestId('other-plans').textContent()) ?? '';
    for (const other of ['Hypertension', 'Kidney', 'Liver', 'Cholesterol']) expect(dpNote).toContain(other);

    await chooseType(page, 'Lifestyle Plan');
    expect(await cardNames(page)).toEqual(['Acidity/Constipation/Gastric Plan', 'Basic Food Guidance Plan', 'Post Pregnancy Plan']);
    expect(await page.getByTestId('plan-cards').locator('[data-highlighted="true"]').count()).toBe(1);
    expect(await page.getByTestId('plan-cards').textContent()).not.toContain('₹');

    // A shared link keeps the chosen type.
    await page.reload();
    await expect.poll(() => page.getByTestId('plan-type').textContent()).toBe('Lifestyle Plan');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is operable by keyboard', async () => {
    const { context, page, errors } = await open('/pricing-plans');
    await page.getByTestId('plan-type').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor();
    // The list opens with focus on the selected option; a key pressed before that lands nowhere.
    const focusedOption = () =>
      page.evaluate(() => (document.activeElement?.getAttribute('role') === 'option' ? document.activeElement.textContent : null));
    await expect.poll(focusedOption).toBe('Weight Loss Plan');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedOption).toBe('Weight Gain/Gym Plan');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('plan-type').textContent()).toBe('Weight Gain/Gym Plan');
    expect(await cardNames(page)).toEqual(['Weight Gain 1 Month', 'Weight Gain 6 Months', 'Weight Gain 1 Year']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
