import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/session.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { callerFor } from '../helpers/callers.js';
import { closeToasts, expectPath, expectToast, nav, newPage, screenshot, signInAsAdmin, sharedPage } from '../helpers/pages.js';

/**
 * Each console screen's main path in Chromium, with screenshots at 375 and
 * 1440 px (/tmp/shots/admin-*.png). Data the screens act on (bookings,
 * support requests, reviews) arrives the way it does in production: through
 * the public and client procedures.
 */
let server: TestServer;
let browser: Browser;
let admin: TestUser;
let reviewers: TestUser[];
let page: Page;
let errors: string[];
sharedPage({ viewport: DESKTOP }, async (shared) => {
  ({ server, browser, page, errors } = shared);
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
  const visitor = await callerFor(server);
  await visitor.consultation.book({
    name: 'Priya Nair',
    email: 'priya.nair@example.test',
    gender: 2,
    age: 34,
    height: '5\'4"',
    weight: 71,
    state: 'Kerala',
    contact: '9876501234',
    country: 356,
    isMedicalCondition: true,
  });
  await visitor.support.create({ name: 'Rahul', email: 'rahul@example.test', message: 'Do you offer video calls on the 1 month plan?' });
  reviewers = await Promise.all(['Anita', 'Bharat', 'Chitra'].map((firstName) => server.user({ firstName, lastName: 'Rao' })));
  const comments = [
    'Lost 6 kg in three months, without giving up rice!',
    'Weekly follow-ups kept me going.',
    'My PCOD symptoms are finally under control.',
  ];
  for (const [i, r] of reviewers.entries()) {
    await (await callerFor(server, r.token)).rating.add({ reviewStar: 5 - (i % 2) / 2, reviewComment: comments[i] });
  }
  const anita = await callerFor(server, reviewers[0]!.token);
  for (const [date, weight] of [
    ['2026-08-01', 74.2],
    ['2026-08-29', 72.8],
    ['2026-09-26', 71.5],
    ['2026-10-24', 70.1],
  ] as const) {
    await anita.weight.add({ weight, date });
  }
  for (const ua of ['a', 'b', 'a']) await server.request('GET', '/api/client/track-visit', { headers: { 'user-agent': ua } });
});

/** The same screen at phone width, then back to desktop. */
async function phoneShot(name: string) {
  await page.setViewportSize(PHONE);
  await screenshot(page, `admin-${name}`);
  await page.setViewportSize(DESKTOP);
}

describe('the console', () => {
  it('signs a dietitian in, and refuses a wrong password with the server’s message', async () => {
    await page.goto('/admin/login');
    await phoneShot('login');
    await page.getByLabel('Email', { exact: true }).fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectToast(page, 'Incorrect email or password.');
    // Chromium logs the refused sign-in (401) as a console error: that one was expected.
    expect(errors).toEqual(['console.error: Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
    errors.splice(0);
    await screenshot(page, 'admin-login');
    await signInAsAdmin(page, admin);
  });

  it('overview: counts what needs attention and charts visits', async () => {
    await nav(page, 'Overview');
    await expect.poll(() => page.getByTestId('stat-New bookings').textContent()).toBe('1');
    await expect.poll(() => page.getByTestId('stat-Open support requests').textContent()).toBe('1');
    await expect.poll(() => page.getByTestId('stat-Average rating').textContent()).toBe('4.8 ★');
    await expect.poll(() => page.getByTestId('visits-bar').count()).toBe(30);
    // Three visits made above, plus the console's own page loads (the app counts every load).
    await expect
      .poll(async () => Number(await page.getByTestId('visits-bar').last().getAttribute('data-visits')))
      .toBeGreaterThanOrEqual(3);
    await screenshot(page, 'admin-overview');
    await phoneShot('overview');
    // The dietitian's own work comes first, each figure opening the Follow-ups page filtered to it.
    for (const label of ['Check-ins awaiting a reply', 'Overdue follow-ups'])
      await expect.poll(() => page.getByTestId(`stat-${label}`).textContent()).toMatch(/^\d+$/);
    await page
      .getByTestId('overview-follow-ups')
      .getByRole('link', { name: /Overdue follow-ups/ })
      .click();
    await page.waitForURL(/\/admin\/follow-ups\?show=overdue$/);
    await expect.poll(() => page.getByTestId('follow-up-views').locator('[aria-current="page"]').textContent()).toBe('Overdue');
  });

  it('bookings: every field, contacted, then convert pre-fills a new client', async () => {
    await nav(page, 'Bookings');
    const booking = page.getByTestId('booking').first();
    await expect.poll(() => booking.textContent()).toContain('priya.nair@example.test');
    // Phone numbers are shown formatted.
    for (const field of ['+91 98765 01234', 'Female', '34', '5\'4"', '71 kg', 'Kerala', 'India'])
      expect(await booking.textContent()).toContain(field);
    await booking.getByLabel('Notes').fill('Called; wants the PCOD plan');
    await booking.getByRole('button', { name: 'Save notes' }).click();
    await expectToast(page, 'The booking was updated.');
    await booking.getByRole('button', { name: 'Mark contacted' }).click();
    await page.getByRole('radio', { name: 'Contacted' }).click();
    await screenshot(page, 'admin-bookings');
    await phoneShot('bookings');

    await page.getByRole('link', { name: 'Convert to client' }).click();
    await expectPath(page, '/admin/clients/new');
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Priya');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Nair');
    expect(await page.getByLabel('Email').inputValue()).toBe('priya.nair@example.test');
    expect(await page.getByLabel('Height (m)').inputValue()).toBe('1.63');
    expect(await page.getByLabel('Weight (kg)').inputValue()).toBe('71');
    await screenshot(page, 'admin-client-new');
    await page.getByRole('button', { name: 'Create client from booking' }).click();
    await expectToast(page, 'Priya Nair was added');
    await expectPath(page, /^\/admin\/clients\/\d+$/);
    await nav(page, 'Bookings');
    await page.getByRole('radio', { name: 'Converted' }).click();
    await expect.poll(() => page.getByTestId('booking').first().textContent()).toContain('Open client #');
  });

  it('clients: prefix search, client page, assign a subscription, deactivate', async () => {
    await nav(page, 'Clients');
    await expect.poll(() => page.getByTestId('clients-rows').locator('tr').count()).toBe(4);
    await page.getByLabel('Search clients').fill('pri');
    await expect.poll(() => page.getByTestId('clients-rows').locator('tr').count()).toBe(1);
    await screenshot(page, 'admin-clients');
    await phoneShot('clients');
    await page.getByRole('link', { name: 'Priya Nair' }).click();

    await page.getByRole('button', { name: 'Assign a plan' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Plan type').selectOption('DP');
    await dialog.getByLabel('Plan', { exact: true }).selectOption('tier-pcod');
    await expect.poll(() => dialog.getByLabel('Amount received (₹)').inputValue()).toBe('2125');
    await expect.poll(() => dialog.getByTestId('assign-summary').textContent()).toContain('₹2,237');
    await dialog.getByRole('button', { name: 'Assign plan' }).click();
    await expectToast(page, /PCOD\/PCOS Plan runs from/);
    await expect.poll(() => page.getByTestId('subscription-rows').textContent()).toContain('Active');
    await screenshot(page, 'admin-client');
    await phoneShot('client');

    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expectToast(page, 'Priya Nair was deactivated and signed out everywhere.');
    await expect.poll(() => page.getByText('Deactivated', { exact: true }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await expectToast(page, 'Priya Nair can sign in again.');
  });

  it('client page of a client with history: weight chart and rating', async () => {
    await nav(page, 'Clients');
    await page.getByRole('link', { name: 'Anita Rao' }).click();
    await expect.poll(() => page.getByTestId('weight-chart').count()).toBe(1);
    await expect.poll(() => page.getByTestId('client-rating').textContent()).toContain('Lost 6 kg');
    await screenshot(page, 'admin-client-history');
  });

  it('subscriptions: the list, and ending one', async () => {
    await nav(page, 'Subscriptions');
    await expect.poll(() => page.getByTestId('subscription-rows').textContent()).toContain('Priya Nair');
    await screenshot(page, 'admin-subscriptions');
    await phoneShot('subscriptions');
    await page.getByRole('button', { name: 'Expire' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End subscription' }).click();
    await expectToast(page, 'PCOD/PCOS Plan of Priya has ended.');
    await page.getByRole('radio', { name: 'Ended' }).click();
    await expect.poll(() => page.getByTestId('subscription-rows').textContent()).toContain('Cancelled');
  });

  it('diet plans: upload a PDF, refusing a file that is not one', async () => {
    await nav(page, 'Diet plans');
    // The last screens' toasts sit over the page's actions (top right): clear them, as a person would.
    await closeToasts(page);
    await page.getByRole('link', { name: 'New plan' }).click();
    await page.getByLabel('Client').fill('anita');
    await page
      .getByTestId('client-picker-results')
      .getByRole('option', { name: /Anita Rao/ })
      .click();
    await page.getByRole('radio', { name: 'Upload a PDF' }).click();
    await page.getByLabel('Title').fill('Festive eating guide');
    await page.getByLabel('From').fill('2026-12-20');
    await page.getByLabel('To', { exact: true }).fill('2026-12-31');
    const fileInput = page.getByLabel('PDF file');
    await fileInput.setInputFiles({ name: 'guide.pdf', mimeType: 'application/pdf', buffer: Buffer.from('GIF89a, not a PDF at all') });
    await expect.poll(() => page.getByText('The diet plan must be a PDF file (this file is not a PDF).').count()).toBe(1);
    await screenshot(page, 'admin-plan-upload');
    await fileInput.setInputFiles({
      name: 'guide.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
    await page.getByRole('button', { name: 'Upload plan' }).click();
    await expectToast(page, '"Festive eating guide" is now in the client’s diet plans.');
    await expectPath(page, /^\/admin\/diet-plans\/\d+$/);
    await nav(page, 'Diet plans');
    await expect.poll(() => page.getByTestId('diet-plan-rows').textContent()).toContain('Festive eating guide');
    await screenshot(page, 'admin-plans');
    await phoneShot('plans');
  });

  it('support: a reply is mailed and the request is filed as answered', async () => {
    await nav(page, 'Support');
    const request = page.getByTestId('support-request').first();
    await expect.poll(() => request.textContent()).toContain('Do you offer video calls');
    await screenshot(page, 'admin-support');
    await request.getByRole('button', { name: 'Reply' }).click();
    // An empty reply shows one error, under the field, and no toast.
    await request.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => request.getByRole('alert').allTextContents()).toEqual(['Reply is required']);
    expect(await page.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
    expect(await request.getByLabel(/Reply to Rahul/).getAttribute('aria-invalid')).toBe('true');
    await request.getByLabel(/Reply to Rahul/).fill('Yes: the 6 and 12 month plans include weekly video calls.');
    await phoneShot('support-reply');
    await request.getByRole('button', { name: 'Send reply' }).click();
    await expectToast(page, 'Your reply was mailed to rahul@example.test.');
    await page.getByRole('radio', { name: 'Answered' }).click();
    await expect.poll(() => page.getByTestId('support-request').first().textContent()).toContain('weekly video calls');
  });

  it('reviews: publishing three puts them on the home page', async () => {
    await nav(page, 'Reviews');
    const publish = page.getByTestId('reviews-list').getByRole('button', { name: 'Publish', exact: true });
    await expect.poll(() => publish.count()).toBe(3);
    for (let i = 0; i < 3; i += 1) {
      await publish.first().click();
      await expectToast(page, /is now on the home page/);
      await expect.poll(() => publish.count()).toBe(2 - i);
    }
    await expect.poll(() => page.getByTestId('testimonial-status').textContent()).toContain('3 published: the home page shows them');
    const res = await server.request('GET', '/trpc/testimonials.published');
    expect(res.body.result.data.json.items.map((t: { clientName: string }) => t.clientName).sort()).toEqual(['Anita', 'Bharat', 'Chitra']);
    await screenshot(page, 'admin-reviews');
    await phoneShot('reviews');
  });

  it('outbox and audit log: the mails sent and every change made', async () => {
    await nav(page, 'Outbox');
    await expect.poll(() => page.getByTestId('outbox-mail').count()).toBeGreaterThanOrEqual(3);
    const welcome = page.getByTestId('outbox-mail').filter({ hasText: 'Welcome to Poshan' }).first();
    await welcome.locator('summary').click();
    await expect.poll(() => welcome.getByTestId('outbox-body').isVisible()).toBe(true);
    // The console shows the mail, but never a usable set-password link.
    const shown = await welcome.getByTestId('outbox-body').textContent();
    expect(shown).toContain('[link hidden: only the recipient receives it');
    expect(shown).not.toContain('token=');
    await screenshot(page, 'admin-outbox');
    await phoneShot('outbox');
    await nav(page, 'Audit log');
    const rows = page.getByTestId('audit-rows');
    for (const text of [
      'Converted booking',
      'Created client Priya Nair',
      'Deactivated client Priya Nair',
      'Uploaded diet plan',
      'Replied to support request',
      'Published the review',
    ]) {
      await expect.poll(() => rows.textContent()).toContain(text);
    }
    await screenshot(page, 'admin-audit');
    await phoneShot('audit');
  });

  it('the drawer collapses to icons, and opens over the page on a phone', async () => {
    await page.setViewportSize(PHONE);
    await nav(page, 'Overview').catch(() => {});
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect.poll(() => page.getByTestId('admin-drawer').getAttribute('data-state')).toBe('open');
    await screenshot(page, 'admin-drawer-open');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('admin-drawer').getAttribute('data-state')).toBe('collapsed');
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
  });
});

it('a client who opens /admin is told it is for the dietitians', async () => {
  const client = reviewers[0]!;
  const { context, page: clientPage, errors: clientErrors } = await newPage(browser, server, { viewport: PHONE, as: client });
  await clientPage.goto('/admin');
  await expect.poll(() => clientPage.getByRole('heading', { name: 'This area is for the dietitian team' }).count()).toBe(1);
  await screenshot(clientPage, 'admin-not-a-dietitian');
  expect(clientErrors).toEqual([]);
  await context.close();
});

it('a visitor who opens a console page is sent to the console’s sign-in', async () => {
  const { context, page: visitorPage } = await newPage(browser, server, { viewport: PHONE });
  await visitorPage.goto('/admin/clients');
  await expectPath(visitorPage, '/admin/login');
  await context.close();
});

it('a console session that ends goes to the console’s sign-in, not the public site', async () => {
  const dietitian = await server.user({ role: 'admin', firstName: 'Kavya', lastName: 'Menon' });
  await server.deps.db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('token_hash', '=', hashToken(dietitian.token))
    .execute();
  const { context, page: expiredPage, errors: expiredErrors } = await newPage(browser, server, { viewport: DESKTOP, as: dietitian });
  await expiredPage.goto('/admin/clients');
  await expectPath(expiredPage, '/admin/login');
  await expectToast(expiredPage, 'Your session has expired. Please sign in again.');
  expect(await expiredPage.evaluate(() => localStorage.getItem('user'))).toBeNull();
  await expect.poll(() => expiredPage.getByTestId('admin-login-form').count()).toBe(1);
  // The refused check and refresh are 401s the browser logs; nothing else failed.
  expect(expiredErrors.filter((e) => !/40[01]/.test(e))).toEqual([]);
  await context.close();
});

it('Sign out in the console ends the session on the server and returns to the console’s sign-in', async () => {
  const dietitian = await server.user({ role: 'admin', firstName: 'Ravi', lastName: 'Kumar' });
  const { context, page: consolePage, errors: consoleErrors } = await newPage(browser, server, { viewport: DESKTOP, as: dietitian });
  await consolePage.goto('/admin/clients');
  await expect.poll(() => consolePage.getByTestId('admin-user-name').textContent()).toBe('Ravi Kumar');
  await consolePage.getByRole('button', { name: 'Sign out' }).click();
  await expectPath(consolePage, '/admin/login');
  await expectToast(consolePage, 'You have been logged out successfully');
  expect(await consolePage.evaluate(() => localStorage.length)).toBe(0);
  const session = await server.deps.db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('token_hash', '=', hashToken(dietitian.token))
    .executeTakeFirstOrThrow();
  expect(session.revoked_at).not.toBeNull();
  expect(consoleErrors).toEqual([]);
  await context.close();
});
