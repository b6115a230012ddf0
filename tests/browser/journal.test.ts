import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { newClient } from '../helpers/fixtures.js';
import { screenshot, signedInPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const imageLoaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

describe('the meal journal', () => {
  it('a client at 375 px logs a meal with a photo and adds water; the dietitian at 1440 px sees it live and comments; the client sees the comment live', async () => {
    const client = await newClient(server, { firstName: 'Lakshmi', lastName: 'Nair' });
    const dietitian = await server.user({ role: 'admin', firstName: 'Kavya', lastName: 'Rao' });

    // The dietitian has the client's page open before anything is logged.
    const desk = await signedInPage(browser, server, dietitian, { viewport: DESKTOP });
    await desk.page.goto(`/admin/clients/${client.id}`);
    const deskJournal = desk.page.getByTestId('client-journal');
    await expect.poll(() => deskJournal.getByText('Nothing logged for this day.').isVisible(), { timeout: 20_000 }).toBe(true);

    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/journal');
    await expect.poll(() => phone.page.getByTestId('journal-day-title').textContent(), { timeout: 20_000 }).toContain('Today');
    await screenshot(phone.page, 'journal-empty');

    await phone.page.getByTestId('add-meal').click();
    const dialog = phone.page.getByRole('dialog', { name: 'Add a meal' });
    await dialog.getByText('Lunch', { exact: true }).click();
    const input = dialog.getByTestId('meal-photo-input');
    // The phone's camera opens directly.
    expect(await input.getAttribute('capture')).toBe('environment');
    const photo = await sharp({ create: { width: 96, height: 72, channels: 3, background: '#e0a040' } })
      .jpeg()
      .toBuffer();
    await input.setInputFiles({ name: 'thali.jpg', mimeType: 'image/jpeg', buffer: photo });
    await dialog.getByLabel('What did you eat?').fill('Rice, sambar, beans poriyal and curd');
    await dialog.getByText('Hunger, fullness and a note (optional)').click();
    await dialog.getByLabel('Hunger before').selectOption('7');
    await expect.poll(() => dialog.getByRole('button', { name: 'Log meal' }).isEnabled(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => dialog.getByTestId('meal-photo-preview').evaluate(imageLoaded), { timeout: 10_000 }).toBe(true);
    await screenshot(phone.page, 'journal-add-meal');
    await dialog.getByRole('button', { name: 'Log meal' }).click();

    const entry = phone.page.getByTestId('meal-entry').filter({ hasText: 'sambar' });
    await expect.poll(() => entry.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => entry.getByTestId('meal-photo').evaluate(imageLoaded), { timeout: 10_000 }).toBe(true);
    expect(await entry.textContent()).toContain('Hunger 7/10');

    await phone.page.getByRole('button', { name: 'Add a glass of water' }).click();
    await phone.page.getByRole('button', { name: 'Add a glass of water' }).click();
    await expect.poll(() => phone.page.getByTestId('water-count').textContent()).toBe('2 glasses');
    await expect
      .poll(
        async () =>
          (await server.deps.db.selectFrom('water_intake').select('glasses').where('client_id', '=', client.id).executeTakeFirst())
            ?.glasses,
        { timeout: 10_000 },
      )
      .toBe(2);
    await screenshot(phone.page, 'journal-logged');

    // Live on the console: the meal and its photo arrive without a reload.
    const deskEntry = deskJournal.getByTestId('meal-entry').filter({ hasText: 'sambar' });
    await expect.poll(() => deskEntry.isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => deskEntry.getByTestId('meal-photo').evaluate(imageLoaded), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => deskJournal.getByTestId('water-count').textContent(), { timeout: 10_000 }).toBe('2 glasses');
    await deskEntry.getByRole('button', { name: 'Looks good' }).click();
    await deskEntry.getByLabel('Comment on this meal').fill('Lovely balanced plate. Add a little more poriyal next time.');
    await deskEntry.getByRole('button', { name: 'Send comment' }).click();
    await expect.poll(() => deskEntry.getByTestId('meal-comment').count(), { timeout: 10_000 }).toBe(1);
    await screenshot(desk.page, 'journal-console');

    // Live on the client's journal: the comment and the mark arrive without a reload.
    await expect.poll(() => entry.getByTestId('meal-comment').textContent(), { timeout: 20_000 }).toContain('Lovely balanced plate');
    await expect.poll(() => entry.getByTestId('meal-mark').textContent(), { timeout: 10_000 }).toBe('Looks good');
    await entry.getByLabel('Reply to your dietitian').fill('Thank you! Will do.');
    await entry.getByRole('button', { name: 'Send comment' }).click();
    await expect.poll(() => deskEntry.getByTestId('meal-comment').count(), { timeout: 20_000 }).toBe(2);
    await screenshot(phone.page, 'journal-commented');
    // The client was told of the comment, without the meal in the mail.
    const mail = server.mails.find((m) => m.to === client.email && m.subject === 'Your dietitian commented on your meal');
    expect(mail).toBeDefined();
    expect(mail!.text).not.toMatch(/sambar|poriyal/);

    // The same screens at the other width.
    await phone.page.setViewportSize(DESKTOP);
    await screenshot(phone.page, 'journal-commented');
    await desk.page.setViewportSize(PHONE);
    await screenshot(desk.page, 'journal-console');

    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
  }, 300_000);
});
