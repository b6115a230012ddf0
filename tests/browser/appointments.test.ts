import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { callerFor } from '../helpers/callers.js';
import { newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import type { TestServer, TestUser } from '../helpers/server.js';

const LIVE = { timeout: 20_000 };
let server: TestServer;
let browser: Browser;
let admin: TestUser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const indiaToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

async function setUp() {
  if (admin) return;
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  const caller = await callerFor(server, admin.token);
  await caller.admin.appointments.saveAvailability({
    consultationMinutes: 20,
    followUpMinutes: 30,
    bufferMinutes: 10,
    bookable: true,
    weekly: [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => [
      { weekday, kind: 'hours' as const, startMinute: 540, endMinute: 1200 },
      { weekday, kind: 'break' as const, startMinute: 780, endMinute: 840 },
    ]),
    exceptions: [],
  });
}

async function clientWithPlan(firstName: string) {
  const client = await newClient(server, { firstName, lastName: 'Rao' });
  const caller = await callerFor(server, admin.token);
  await caller.admin.subscriptions.assign({
    clientId: client.id,
    planType: 'WL',
    planId: 'tier-commitment',
    startDate: indiaToday(),
    amountReceived: 1000,
  });
  return client;
}

describe('booking a follow-up', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`a client books from the free slots at ${viewport.width} px and sees it upcoming`, async () => {
      await setUp();
      const client = await clientWithPlan(viewport === PHONE ? 'Asha' : 'Dev');
      const { page } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/dashboard/appointments');
      await expect.poll(() => page.getByTestId('left-this-month').count(), LIVE).toBe(1);
      await expect.poll(() => page.getByTestId('slot').count(), LIVE).toBeGreaterThan(0);
      await page.getByTestId('slot').first().click();
      await screenshot(page, 'appointments-pick');
      await page.getByTestId('book-slot').click();
      await expectToast(page, /Booked/);
      await expect.poll(() => page.getByTestId('upcoming-appointment').count(), LIVE).toBe(1);
      await expect.poll(() => page.getByRole('link', { name: 'Call page' }).getAttribute('href')).toMatch(/^\/call\/\d+$/);
      await screenshot(page, 'appointments-booked');
    });
  }

  it('a visitor can pick a free consultation time on /consult?book=true', async () => {
    await setUp();
    const { page } = await signedInPage(browser, server, null, { viewport: PHONE });
    await page.goto('/consult?book=true');
    await expect.poll(() => page.getByTestId('consult-slots').count(), LIVE).toBe(1);
    await expect.poll(() => page.getByTestId('slot').count(), LIVE).toBeGreaterThan(0);
    await page.getByTestId('slot').first().click();
    await screenshot(page, 'consult-slot');
  });
});

describe('the console', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows every dietitian’s week at ${viewport.width} px and today’s list on the overview`, async () => {
      await setUp();
      const { page } = await signedInPage(browser, server, { ...admin, fullName: 'Meera Iyer' }, { viewport });
      await page.goto('/admin/appointments');
      await expect.poll(() => page.getByTestId('week-calendar').count(), LIVE).toBe(1);
      await expect.poll(() => page.getByTestId('calendar-appointment').count(), LIVE).toBeGreaterThan(0);
      await screenshot(page, 'admin-appointments-week');
      await page.getByTestId('calendar-appointment').first().click();
      await expect.poll(() => page.getByRole('button', { name: 'Move' }).count(), LIVE).toBe(1);
      await screenshot(page, 'admin-appointment-dialog');
      await page.keyboard.press('Escape');
      await page.goto('/admin/appointments/availability');
      await expect.poll(() => page.getByTestId('availability-form').count(), LIVE).toBe(1);
      await screenshot(page, 'admin-availability');
      await page.goto('/admin/');
      await expect.poll(() => page.getByTestId('today-appointments').count(), LIVE).toBe(1);
    });
  }
});
