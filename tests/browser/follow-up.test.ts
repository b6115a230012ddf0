import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { addSubscription, localDay, newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

const LIVE = { timeout: 20_000 };

/** End to end: a check-in reaches the open console live; the reply reaches the client live. */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('the follow-up loop', () => {
  it('a check-in appears in the open console queue without a reload, and the reply on the client’s page', async () => {
    const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const client = await newClient(server, { firstName: 'Kiran', lastName: 'Das' });
    const other = await newClient(server, { firstName: 'Aarav', lastName: 'Shah' });
    await addSubscription(server, client.id, localDay(-30));
    await addSubscription(server, other.id, localDay(-3));

    const consoleCtx = await openContext(browser, server, { as: { ...admin, fullName: 'Meera Iyer' }, viewport: DESKTOP });
    const consolePage = await consoleCtx.context.newPage();
    await consolePage.goto('/admin/follow-ups');
    const rows = consolePage.getByTestId('follow-up-row');
    await expect.poll(() => consolePage.getByTestId('follow-ups-live').textContent(), LIVE).toContain('Live');
    // Kiran has been on a weekly plan for 30 days with no check-in: overdue, so first.
    await expect.poll(() => rows.first().textContent(), LIVE).toContain('Kiran Das');
    expect(await rows.first().textContent()).toContain('No check-in yet');
    await screenshot(consolePage, 'admin-follow-ups');

    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/check-in');
    await expect.poll(() => page.getByTestId('next-check-in').textContent(), LIVE).toMatch(/was due on/);
    await page.getByLabel('Today’s weight (kg)').fill('72.5');
    await page.getByRole('radio', { name: /4\s*Most days/ }).check();
    await page.getByLabel('Notes for your dietitian (optional)').fill('Walked every evening.');
    await screenshot(page, 'check-in-filled');
    await page.getByRole('button', { name: 'Send check-in' }).click();
    await expectToast(page, 'Check-in sent. Your dietitian will reply soon.');
    await expect.poll(() => page.getByTestId('check-in-history').textContent(), LIVE).toContain('72.5 kg');

    // The console, untouched since it loaded, shows the check-in and re-orders: Kiran is no longer overdue.
    const kiran = rows.filter({ hasText: 'Kiran Das' });
    await expect.poll(() => kiran.getByTestId('follow-up-last-check-in').textContent(), LIVE).toContain('72.5 kg');
    await expect.poll(() => rows.first().textContent(), LIVE).toContain('Aarav Shah');
    await screenshot(consolePage, 'admin-follow-ups-live');

    await kiran.getByRole('button', { name: 'Reply' }).click();
    await consolePage.getByRole('textbox', { name: 'Reply' }).fill('Lovely progress, Kiran. Keep the evening walks.');
    await consolePage.getByRole('button', { name: 'Send reply' }).click();
    await expect
      .poll(() => consolePage.locator('[data-sonner-toast]', { hasText: 'Reply sent to Kiran.' }).count(), LIVE)
      .toBeGreaterThan(0);

    await expect
      .poll(() => page.getByTestId('check-in-reply').first().textContent(), LIVE)
      .toContain('Lovely progress, Kiran. Keep the evening walks.');
    expect(await page.getByTestId('check-in-reply').first().textContent()).toContain('Meera Iyer replied');
    await screenshot(page, 'check-in-replied');

    // The weight went into the weight history too.
    await page.goto('/dashboard/weight-history');
    await expect.poll(() => page.getByTestId('weights-table').textContent(), LIVE).toContain('72.5');
    expect(errors).toEqual([]);
    expect(consoleCtx.errors).toEqual([]);
    await context.close();
    await consoleCtx.context.close();
  }, 240_000);

  it('looks right on a desktop and a phone', async () => {
    const client = await newClient(server, { firstName: 'Lata', lastName: 'Rao' });
    await addSubscription(server, client.id, localDay(-2));
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/check-in');
      await expect.poll(() => page.getByTestId('next-check-in').textContent(), LIVE).toMatch(/due on/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await screenshot(page, 'check-in');
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
