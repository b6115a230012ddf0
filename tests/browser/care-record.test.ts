import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serviceDay } from '../../server/time.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { newClient } from '../helpers/fixtures.js';
import { expectPath, expectToast, screenshot, signedInPage, signInAsAdmin } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const day = (offset: number) =>
  new Date(Date.parse(`${serviceDay(new Date())}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

describe('the care record', () => {
  it('a client at 375 px fills the intake from the dashboard prompt; the dietitian at 1440 px reads it on the client page', async () => {
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Verma', heightM: 1.6, weightKg: 72 });
    const { context, page } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    const prompt = page.getByTestId('intake-prompt');
    await expect.poll(() => prompt.isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'care-intake-prompt');
    await prompt.getByRole('link', { name: 'Start the questionnaire' }).click();
    await expectPath(page, '/dashboard/intake');

    const form = page.getByTestId('intake-form');
    await form.getByLabel('PCOD / PCOS').check();
    await form.getByLabel(/^Medicines and supplements/).fill('Metformin 500 mg after dinner');
    await form.getByLabel(/^Diet pattern/).selectOption('eggetarian');
    // A bad answer says why at the field; the good ones are saved anyway.
    await form.getByLabel(/^Sleep/).fill('30');
    await form.getByLabel(/^Sleep/).blur();
    await expect.poll(() => form.getByText('Sleep must be between 2 and 16 hours a night').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('intake-status').textContent(), { timeout: 10_000 }).toContain('Saved');
    // The half-filled form survives a reload.
    await page.reload();
    await expect
      .poll(() => form.getByLabel(/^Medicines and supplements/).inputValue(), { timeout: 10_000 })
      .toBe('Metformin 500 mg after dinner');
    expect(await form.getByLabel('PCOD / PCOS').isChecked()).toBe(true);

    await form.getByRole('button', { name: 'Finish questionnaire' }).click();
    await expect.poll(() => form.getByText('Tell us about a typical day’s meals and their times').isVisible()).toBe(true);
    await form.getByLabel(/^A typical day/).fill('7 am tea\n9 am poha\n1:30 pm dal, rice, sabzi\n8 pm two rotis, paneer');
    await form.getByLabel(/^Activity level/).selectOption('light');
    await form.getByLabel(/^Sleep/).fill('7');
    await form.getByLabel(/^Your goals in your own words/).fill('Regular periods and 6 kg less by summer');
    await screenshot(page, 'care-intake');
    await form.getByRole('button', { name: 'Finish questionnaire' }).click();
    await expectToast(page, 'Thank you! Your dietitian will read your answers before your plan.');
    await expectPath(page, '/dashboard/progress');
    // Finish lands at the top of the next page, not scrolled to where the button was.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.getByTestId('intake-prompt').count()).toBe(0);
    await context.close();

    const dietitian = await server.user({ role: 'admin', firstName: 'Meera' });
    const admin = await signedInPage(browser, server, null, { viewport: DESKTOP });
    await signInAsAdmin(admin.page, dietitian);
    await admin.page.goto(`/admin/clients/${client.id}`);
    const intake = admin.page.getByTestId('client-intake');
    await expect.poll(() => intake.textContent(), { timeout: 15_000 }).toContain('Metformin 500 mg after dinner');
    expect(await intake.textContent()).toContain('Eggetarian');
    expect(await intake.textContent()).toContain('PCOD / PCOS');
    await screenshot(admin.page, 'care-console-client');
    await admin.context.close();
  }, 240_000);

  it('goals and the target line show on the weight chart; measurements, photos and documents at 375 and 1440 px', async () => {
    const client = await newClient(server, { firstName: 'Rohan', lastName: 'Mehta', heightM: 1.75, weightKg: 84 });
    for (const [weight, offset] of [
      [86, -60],
      [84.5, -30],
      [83, -3],
    ] as const) {
      await server.request('POST', '/api/updated-weights/add-updated-weight', { token: client.token, body: { weight, date: day(offset) } });
    }
    await server.request('PUT', '/api/intake', {
      token: client.token,
      body: {
        answers: { dietPattern: 'vegetarian', typicalDay: 'Three meals', activityLevel: 'moderate', sleepHours: 7, goalsInWords: 'Fitter' },
        complete: true,
      },
    });
    await server.request('POST', '/api/measurements', {
      token: client.token,
      body: { clientRequestId: randomUUID(), date: day(-30), waistCm: 96, hipCm: 104, chestCm: 100, armCm: 33, thighCm: 58 },
    });

    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/progress');
      const goals = page.getByTestId('goals-card');
      if (viewport === PHONE) {
        await page.getByRole('button', { name: 'Set goals' }).click();
        const form = page.getByTestId('goals-form');
        await form.getByLabel('Target weight (kg)').fill('78');
        await form.getByLabel('Reach it by').fill(day(-1));
        await form.getByRole('button', { name: 'Save goals' }).click();
        await expect.poll(() => form.getByText('The target date must be after today').isVisible()).toBe(true);
        await form.getByLabel('Reach it by').fill(day(120));
        await form.getByLabel('Water (glasses a day)').fill('8');
        await form.getByLabel('Steps a day').fill('9000');
        await form.getByLabel('A habit, in words').fill('A walk after dinner');
        await form.getByRole('button', { name: 'Save goals' }).click();
        await expectToast(page, 'Goals saved.');

        const measure = page.getByTestId('measurement-form');
        await measure.getByLabel('Waist (cm)').fill('93.5');
        await measure.getByRole('button', { name: 'Save measurements' }).click();
        await expectToast(page, 'Measurements saved.');

        const photos = page.getByTestId('photo-form');
        await photos.getByLabel('Photo').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: await pngPhoto() });
        await photos.getByRole('button', { name: 'Add photo' }).click();
        await expectToast(page, 'Photo saved.');
      }
      await expect.poll(() => goals.getByTestId('goals-summary').textContent(), { timeout: 15_000 }).toContain('78 kg');
      await expect.poll(() => goals.getByTestId('weight-target-line').count()).toBe(1);
      expect(await goals.getByTestId('weight-chart').getAttribute('aria-label')).toMatch(/^Target 78 kg by /);
      await expect.poll(() => page.getByTestId('measurements-table').textContent()).toContain('93.5');
      await expect.poll(() => page.getByTestId('progress-photos').locator('img').count()).toBe(1);
      await screenshot(page, 'care-progress');

      await page.goto('/dashboard/documents');
      if (viewport === PHONE) {
        const doc = page.getByTestId('document-form');
        await doc.getByLabel('Title').fill('HbA1c');
        await doc.getByLabel(/^File/).setInputFiles({ name: 'hba1c.png', mimeType: 'image/png', buffer: await pngPhoto() });
        await doc.getByRole('button', { name: 'Add document' }).click();
        await expectToast(page, 'Document added.');
      }
      await expect.poll(() => page.getByTestId('documents-list').textContent(), { timeout: 15_000 }).toContain('HbA1c');
      await screenshot(page, 'care-documents');
      await context.close();
    }

    const dietitian = await server.user({ role: 'admin', firstName: 'Meera' });
    const admin = await signedInPage(browser, server, null, { viewport: PHONE });
    await signInAsAdmin(admin.page, dietitian);
    await admin.page.goto(`/admin/clients/${client.id}`);
    await expect.poll(() => admin.page.getByTestId('documents-list').textContent(), { timeout: 15_000 }).toContain('HbA1c');
    await expect.poll(() => admin.page.getByTestId('weight-target-line').count()).toBe(1);
    await screenshot(admin.page, 'care-console-client');
    await admin.context.close();
  }, 240_000);
});

async function pngPhoto() {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 40, g: 150, b: 140 } } })
    .png()
    .toBuffer();
}
