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

  it('a visitor’s picked time is held until they confirm it from the mailed link', async () => {
    await setUp();
    const { page } = await signedInPage(browser, server, null, { viewport: PHONE });
    await page.goto('/consult?book=true');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), LIVE).toBeGreaterThan(200);
    await dialog.getByLabel('Name', { exact: true }).fill('Kavya Menon');
    await dialog.getByLabel('Email', { exact: true }).fill('kavya.holds@example.test');
    await dialog.getByLabel('Age', { exact: true }).fill('31');
    await dialog.getByLabel('Height (feet)').fill(`5'4"`);
    await dialog.getByLabel('Weight (kg)').fill('68');
    await dialog.getByLabel('State', { exact: true }).fill('Kerala');
    await dialog.getByLabel('Contact number').fill('9847012399');
    await dialog.getByRole('radio', { name: 'No' }).check();
    await dialog.getByLabel('Country').selectOption({ label: 'India' });
    await expect.poll(() => dialog.getByTestId('slot').count(), LIVE).toBeGreaterThan(0);
    await dialog.getByTestId('slot').first().click();
    await dialog.getByRole('button', { name: 'Consult' }).click();
    await expectToast(page, /We are holding .* confirm it with the link/);

    await server.deps.mailer.drain();
    const mail = server.mails.filter((m) => m.to === 'kavya.holds@example.test').at(-1);
    const link = /\/confirm-consultation\?hold=\d+&exp=\d+&sig=[\w-]+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBeDefined();
    // Opening the link books nothing: a mail scanner may open it.
    await page.goto(link!);
    await expect.poll(() => page.getByRole('button', { name: 'Confirm my time' }).count(), LIVE).toBe(1);
    const before = await server.deps.db.selectFrom('consultation_holds').select('status').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(before.status).toBe('held');
    await screenshot(page, 'consult-confirm');
    await page.getByRole('button', { name: 'Confirm my time' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'is booked' }).count(), LIVE).toBe(1);
    const after = await server.deps.db.selectFrom('consultation_holds').select('status').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(after.status).toBe('confirmed');
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
