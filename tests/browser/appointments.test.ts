import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { callerFor } from '../helpers/callers.js';
import { newClient } from '../helpers/fixtures.js';
import { animationsFinished, expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { seriousAxeViolations } from '../helpers/public-site.js';
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
      await expect.poll(() => page.getByTestId('left-this-period').count(), LIVE).toBe(1);
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
    // No gender is chosen for her: the form has no default.
    await dialog.getByRole('radio', { name: 'Female' }).check();
    await dialog.getByRole('radio', { name: 'No' }).check();
    await dialog.getByLabel('Country').selectOption({ label: 'India' });
    await expect.poll(() => dialog.getByTestId('slot').count(), LIVE).toBeGreaterThan(0);
    await dialog.getByTestId('slot').first().click();
    await dialog.getByRole('button', { name: 'Consult' }).click();
    // A confirmation screen, not a toast: the held time and what happens next.
    const confirmation = page.getByTestId('booking-confirmation');
    await expect.poll(() => confirmation.textContent(), LIVE).toMatch(/We are holding .* It is booked only once you confirm it/);

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
    const booked = page.getByTestId('consultation-booked');
    await expect.poll(() => booked.count(), LIVE).toBe(1);
    expect(await booked.textContent()).toMatch(/is booked for/);
    expect(await booked.getByRole('link', { name: 'Join the video call' }).getAttribute('href')).toMatch(/\/call\/guest\/\d+\?/);
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

/** The page's own time zone (the slots are asked for in it, as the page asks). */
const zoneOf = (page: Page) => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

describe('appointments live', () => {
  it('a booking made by a client appears on the dietitian’s calendar and today’s list at 1440 px without a reload', async () => {
    await setUp();
    const client = await clientWithPlan('Gita');
    const { page } = await signedInPage(browser, server, { ...admin, fullName: 'Meera Iyer' }, { viewport: DESKTOP });
    await page.goto('/admin/appointments');
    await expect.poll(() => page.getByTestId('week-calendar').count(), LIVE).toBe(1);
    const asClient = await callerFor(server, client.token);
    const { slots } = await asClient.appointments.slots({ kind: 'follow_up', tz: 'Asia/Kolkata' });
    const slot = slots[0]!;
    const weekOf = (day: string) => {
      const d = new Date(`${day}T00:00:00Z`);
      return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    };
    if (weekOf(slot.india.date) !== weekOf(indiaToday())) await page.getByRole('button', { name: 'Next week' }).click();
    const named = page.getByTestId('calendar-appointment').filter({ hasText: 'Gita Rao' });
    await expect.poll(() => named.count(), LIVE).toBe(0);
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const bookedAt = Date.now();
    await asClient.appointments.book({ start: slot.start, kind: 'follow_up', clientRequestId: randomUUID() });
    await expect.poll(() => named.count(), { timeout: 10_000, interval: 100 }).toBe(1);
    const tookMs = Date.now() - bookedAt;
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(tookMs).toBeLessThan(10_000);
    await screenshot(page, 'admin-appointments-live');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Today's list on the Overview follows too (when the first free time is today).
    await page.goto('/admin/');
    const todayList = page.getByTestId('today-appointments');
    await expect.poll(() => todayList.count(), LIVE).toBe(1);
    if (slot.india.date === indiaToday()) {
      await expect.poll(() => todayList.getByText('Gita Rao').count(), LIVE).toBe(1);
      const dietitian = await callerFor(server, admin.token);
      const list = await asClient.appointments.list({});
      await dietitian.admin.appointments.cancel({ id: list.upcoming[0]!.id, message: null });
      // Cancelled sessions leave today's list, live.
      await expect.poll(() => todayList.getByText('Gita Rao').count(), LIVE).toBe(0);
    }
    await screenshot(page, 'admin-overview-today-live');
  });

  it('at 375 px the client’s slot list follows others’ bookings and cancels, and her session booked or moved by the dietitian, live', async () => {
    await setUp();
    const asha = await clientWithPlan('Asha');
    const ravi = await clientWithPlan('Ravi');
    const dietitian = await callerFor(server, admin.token);
    const { page } = await signedInPage(browser, server, asha, { viewport: PHONE });
    await page.goto('/dashboard/appointments');
    await expect.poll(() => page.getByTestId('slot').count(), LIVE).toBeGreaterThan(0);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const tz = await zoneOf(page);
    const { slots } = await (await callerFor(server, ravi.token)).appointments.slots({ kind: 'follow_up', tz });
    const first = slots[0]!;
    const firstShown = () => page.getByTestId('slot').first().textContent();
    await expect.poll(firstShown, LIVE).toContain(first.local.time);

    // Ravi takes the first free time: it leaves Asha's list; the dietitian cancels it: it comes back.
    const ravis = await (await callerFor(server, ravi.token)).appointments.book({
      start: first.start,
      kind: 'follow_up',
      clientRequestId: randomUUID(),
    });
    await expect.poll(firstShown, LIVE).not.toContain(first.local.time);
    await dietitian.admin.appointments.cancel({ id: ravis.id, message: null });
    await expect.poll(firstShown, LIVE).toContain(first.local.time);

    // The dietitian books Asha a session, then moves it: her page follows.
    const booked = await dietitian.appointments.book({
      start: slots[1]!.start,
      kind: 'follow_up',
      clientRequestId: randomUUID(),
      clientId: asha.id,
    });
    const upcoming = page.getByTestId('upcoming-appointment');
    await expect.poll(() => upcoming.count(), LIVE).toBe(1);
    await expect.poll(() => upcoming.textContent(), LIVE).toContain(slots[1]!.local.time);
    const target =
      slots.find((s) => s.local.date === slots[1]!.local.date && s.start.getTime() > slots[1]!.start.getTime() + 3_600_000) ?? slots[3]!;
    await dietitian.admin.appointments.move({ id: booked.id, start: target.start, message: null });
    await expect.poll(() => upcoming.textContent(), LIVE).toContain(target.local.time);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await screenshot(page, 'appointments-live-moved');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('availability form', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`says what is wrong on the field, in words, and whether bookings are open, at ${viewport.width} px`, async () => {
      await setUp();
      const { page } = await signedInPage(browser, server, { ...admin, fullName: 'Meera Iyer' }, { viewport });
      await page.goto('/admin/appointments/availability');
      await expect.poll(() => page.getByTestId('availability-form').count(), LIVE).toBe(1);
      await expect.poll(() => page.getByTestId('booking-state').textContent(), LIVE).toMatch(/Bookings are open/);
      const to = page.getByLabel('Monday to').first();
      await to.fill('08:00');
      await page.getByTestId('save-availability').click();
      await expect.poll(() => to.getAttribute('aria-invalid'), LIVE).toBe('true');
      const describedBy = await to.getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toBe('The end time must be after the start time');
      expect(await page.getByText(/endMinute|startMinute/).count()).toBe(0);
      await screenshot(page, 'admin-availability-error');
      // The form is checked once the toast has gone (the toast's own styles are the shell's). At 375 px the console
      // header's logo link has no name: that is the shell's, outside this form.
      await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);
      await animationsFinished(page);
      if (viewport === DESKTOP) expect(await seriousAxeViolations(page)).toEqual([]);
      await to.fill('13:00');
      await page.getByLabel('Takes bookings').uncheck();
      await expect.poll(() => page.getByTestId('booking-state').textContent(), LIVE).toMatch(/Saving stops new bookings/);
      await page.getByLabel('Takes bookings').check();
      await page.getByTestId('save-availability').click();
      await expectToast(page, /Bookings are open/);
      await expect.poll(() => to.getAttribute('aria-invalid'), LIVE).toBe(null);
    });
  }
});
