import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { expectPath, expectToast, nav, newPage, screenshot, signInAsAdmin } from '../helpers/pages.js';
import { pdfText } from '../helpers/pdf.js';
import { setPasswordPath } from '../helpers/sign-in.js';

/**
 * The console's main flow, end to end in Chromium: the dietitian creates a
 * client → the client sets a password from the mailed link and signs in →
 * the dietitian posts to the feed and the client sees it live → the
 * dietitian composes a plan → the client downloads the PDF, which holds the meals.
 */
let server: TestServer;
let browser: Browser;
let admin: TestUser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// A long flow (two people, a PDF worker's first start, a confirmation): more than the usual minute on a busy machine.
it('runs the service from /admin: client, password, feed, plan, PDF', { timeout: 120_000 }, async () => {
  const dietitian = await newPage(browser, server, { viewport: DESKTOP });
  const { page: console_ } = dietitian;
  await signInAsAdmin(console_, admin);
  await expectToast(console_, 'Welcome back, Meera!');

  // 1. The dietitian adds a client.
  await nav(console_, 'Clients');
  await console_.getByRole('link', { name: 'Add client' }).click();
  await console_.getByLabel('First name').fill('Kavya');
  await console_.getByLabel('Last name').fill('Menon');
  await console_.getByLabel('Email').fill('kavya.menon@example.test');
  await console_.getByLabel('Phone').fill('98765 43210');
  await console_.getByLabel('Height (m)').fill('1.6');
  await console_.getByLabel('Weight (kg)').fill('64');
  await console_.getByLabel('Condition notes').fill('PCOD; vegetarian');
  await console_.getByRole('button', { name: 'Create client' }).click();
  await expectToast(console_, 'Kavya Menon was added and a link to set a password was mailed to kavya.menon@example.test.');
  await expectPath(console_, /^\/admin\/clients\/\d+$/);
  const clientId = Number(new URL(console_.url()).pathname.split('/').pop());
  await expect.poll(() => console_.getByRole('heading', { level: 1 }).textContent()).toBe('Kavya Menon');

  // The welcome mail is in the console's outbox.
  await nav(console_, 'Outbox');
  await expect.poll(() => console_.getByTestId('outbox-mail').first().textContent()).toContain('Welcome to Poshan: set your password');

  // 2. The client sets a password from the link, then signs in.
  const client = await newPage(browser, server, { viewport: PHONE });
  const { page: phone } = client;
  await phone.goto(await setPasswordPath(server, 'kavya.menon@example.test'));
  await phone.getByLabel('New password', { exact: true }).fill('kavya-secret-1');
  await phone.getByLabel('Confirm new password', { exact: true }).fill('kavya-secret-1');
  await phone.getByRole('button', { name: 'Save new password' }).click();
  await expectPath(phone, '/login');
  await phone.getByLabel('Email', { exact: true }).fill('kavya.menon@example.test');
  await phone.getByLabel('Password', { exact: true }).fill('kavya-secret-1');
  await phone.getByRole('button', { name: 'Login', exact: true }).click();
  await expectPath(phone, '/dashboard/feeds');
  await expect.poll(() => phone.getByTestId('feed-empty').count()).toBe(1);

  // 3. The dietitian posts; the client's open feed shows it without a reload.
  await nav(console_, 'Feed');
  const text = 'Monsoon tip: swap fried pakoras for roasted makhana.\nRecipe: https://example.com/makhana';
  await console_.getByLabel('New post').fill(text);
  await console_.getByRole('button', { name: 'Publish' }).click();
  await expectToast(console_, 'Posted. Clients see it now.');
  await expect.poll(() => console_.getByTestId('admin-post').count()).toBe(1);
  await expect
    .poll(() => console_.getByRole('link', { name: 'https://example.com/makhana' }).getAttribute('href'))
    .toBe('https://example.com/makhana');
  await expect.poll(() => phone.getByTestId('post-desc').first().textContent(), { timeout: 5_000 }).toContain('roasted makhana');
  await screenshot(console_, 'admin-feed');

  // 4. The dietitian composes a plan for the client.
  await console_.goto(`/admin/clients/${clientId}`);
  await console_.getByRole('link', { name: 'Compose plan' }).click();
  await expectPath(console_, '/admin/diet-plans/new');
  await console_.getByLabel('Title').fill('PCOD reset, week 1');
  await console_.getByLabel('From').fill('2026-12-01');
  await console_.getByLabel('To', { exact: true }).fill('2026-12-07');
  const foods = [
    ['Warm jeera water', '1', 'glass', '', '250'],
    ['Vegetable poha', '1', 'katori', '150', ''],
    ['Phulka with moong dal', '2', 'roti', '60', ''],
    ['Paneer bhurji', '1', 'katori', '120', ''],
  ];
  const items = console_.getByTestId('compose-item');
  await expect.poll(() => items.count()).toBe(foods.length);
  for (const [i, [food, qty, unit, grams, ml]] of foods.entries()) {
    const item = items.nth(i);
    await item.getByLabel('Food', { exact: true }).fill(food!);
    await item.getByLabel('Qty', { exact: true }).fill(qty!);
    await item.getByLabel('Unit', { exact: true }).selectOption(unit!);
    await item.getByLabel('Grams', { exact: true }).fill(grams!);
    await item.getByLabel('ml', { exact: true }).fill(ml!);
  }
  await screenshot(console_, 'admin-plan-editor');
  // The preview opens the rendered PDF in a new tab, without saving anything. It is this test
  // process's first PDF: the pool starts its worker thread for it (npm start warms one at start-up,
  // test servers do not), which takes well over Playwright's default 10 s on a busy machine.
  const [preview] = await Promise.all([
    dietitian.context.waitForEvent('page', { timeout: 60_000 }),
    console_.getByRole('button', { name: 'Preview PDF' }).click(),
  ]);
  await preview.waitForURL(/^blob:/);
  await preview.close();
  await console_.getByRole('button', { name: 'Save and render PDF' }).click();
  // One day for a seven-day period: the console asks before the client sees it.
  const confirm = console_.getByRole('dialog', { name: 'Save this plan?' });
  await expect
    .poll(() => confirm.getByTestId('plan-warnings').textContent())
    .toBe(
      'This plan lists 1 day for a 7-day period (1 Dec 2026 – 7 Dec 2026): add the missing days or shorten the dates, unless the client is meant to repeat it.',
    );
  await screenshot(console_, 'admin-plan-warning');
  await confirm.getByRole('button', { name: 'Save anyway' }).click();
  await expectToast(console_, '"PCOD reset, week 1" was rendered to PDF and is now in the client’s diet plans.');
  await expectPath(console_, /^\/admin\/diet-plans\/\d+$/);
  await expect.poll(() => console_.getByTestId('plan-meals').textContent()).toContain('Vegetable poha — 1 katori (150 g)');
  await screenshot(console_, 'admin-plan');

  // 5. The client downloads it from My Diet Plans; the PDF holds the meals.
  await phone.goto('/dashboard/diet-plan');
  const download = phone.getByRole('link', { name: /Download PDF/ }).first();
  const href = await download.getAttribute('href');
  expect(href).toMatch(/\/api\/diet-plan\/pdf\/\d+\?exp=\d+&sig=/);
  const [tab] = await Promise.all([client.context.waitForEvent('page'), download.click()]);
  // It opens in a new tab without a bearer header (a signed link).
  await tab.waitForURL(/\/api\/diet-plan\/pdf\/\d+\?exp=/);
  const pdf = await client.context.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const pdfWords = pdfText(await pdf.body());
  for (const expected of [
    'Kavya Menon',
    'Meera Iyer',
    'PCOD reset, week 1',
    'Vegetable poha',
    '1 katori (150 g)',
    '2 rotis (60 g)',
    'Warm jeera water',
    '1 glass (250 ml)',
  ]) {
    expect(pdfWords).toContain(expected);
  }

  // 6. Editing the plan makes version 2; the client's download is the new one.
  await console_.getByRole('link', { name: 'Edit' }).click();
  await expectPath(console_, /^\/admin\/diet-plans\/\d+\/edit$/);
  await console_.getByTestId('compose-item').nth(1).getByLabel('Food', { exact: true }).fill('Besan chilla');
  await console_.getByRole('button', { name: 'Save new version' }).click();
  await expectToast(console_, 'Version 2 saved: the client now sees it.');
  await expect.poll(() => console_.getByTestId('plan-versions').locator('tr').count()).toBe(2);
  await phone.reload();
  const newHref = await phone
    .getByRole('link', { name: /Download PDF/ })
    .first()
    .getAttribute('href');
  const revised = pdfText(await (await client.context.request.get(newHref!)).body());
  expect(revised).toContain('Besan chilla');
  expect(revised).not.toContain('Vegetable poha');

  // Every step is in the audit trail.
  await nav(console_, 'Audit log');
  await expect.poll(() => console_.getByTestId('audit-rows').textContent()).toContain('Composed diet plan "PCOD reset, week 1"');
  await expect.poll(() => console_.getByTestId('audit-rows').textContent()).toContain('Created client Kavya Menon');

  // The browser logs the held-back save (409, the one-day plan) itself; nothing else went wrong.
  expect(dietitian.errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  expect(client.errors).toEqual([]);
  await dietitian.context.close();
  await client.context.close();
});
