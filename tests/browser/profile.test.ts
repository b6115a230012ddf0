import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { httpClient } from '../helpers/callers.js';
import { newClient } from '../helpers/fixtures.js';
import { expectPath, expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Signs in over REST as another browser would; returns its session token. */
async function signInElsewhere(email: string, password: string) {
  const res = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': FIREFOX_ON_WINDOWS },
    body: JSON.stringify({ email, password, role: 2 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

const authorizationStatus = async (token: string) =>
  (await fetch(`${server.url}/api/auth/check-authorization`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('My Profile', () => {
  it('edits the details (Check BMI starts from them), changes the password, and signs in with the new one', async () => {
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Verma', heightM: 1.6, weightKg: 60 });
    // Another device, signed in before the change: the change signs it out.
    const laptopToken = await signInElsewhere(client.email, client.password);
    expect(await authorizationStatus(laptopToken)).toBe(200);

    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/feeds');
    await page.getByTestId('dashboard-drawer').getByRole('link', { name: 'My Profile' }).click();
    await expectPath(page, '/dashboard/profile');
    await expect.poll(() => page.getByRole('heading', { name: 'My Profile', level: 1 }).isVisible()).toBe(true);
    const details = page.getByRole('form', { name: 'Your details' });
    await expect.poll(() => details.getByLabel('First name').inputValue(), { timeout: 10_000 }).toBe('Asha');
    expect(await details.getByLabel('Height (m)').inputValue()).toBe('1.6');
    expect(await page.getByTestId('devices').textContent()).toContain('This device');
    await screenshot(page, 'profile');

    await details.getByLabel('First name').fill('Ashwini');
    await details.getByLabel('Phone').fill('98765 43210');
    await details.getByLabel('Height (m)').fill('1.65');
    await details.getByLabel('Weight (kg)').fill('62');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expectToast(page, 'Your profile has been saved.');
    await expect.poll(() => page.getByTestId('dashboard-user-name').textContent()).toBe('Ashwini Verma');
    expect(await details.getByLabel('Phone').inputValue()).toBe('+91 98765 43210');

    await page.getByTestId('dashboard-drawer').getByRole('link', { name: 'Check BMI' }).click();
    await expect.poll(() => page.getByLabel('Height (m)').inputValue()).toBe('1.65');
    expect(
      await page
        .getByLabel(/Weight/)
        .first()
        .inputValue(),
    ).toBe('62');

    await page.getByTestId('dashboard-drawer').getByRole('link', { name: 'My Profile' }).click();
    const password = page.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current password', { exact: true }).fill('wrong password');
    await password.getByLabel('New password', { exact: true }).fill('correct horse battery');
    await password.getByLabel('Repeat the new password').fill('correct horse batter');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => password.getByText('The two new passwords do not match').isVisible(), { timeout: 10_000 }).toBe(true);
    await password.getByLabel('Repeat the new password').fill('correct horse battery');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => password.getByText('Your current password is not correct.').isVisible(), { timeout: 10_000 }).toBe(true);
    // The field in error has the focus, so the person can type at once.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('current-password');
    await screenshot(page, 'profile-password-errors');

    await password.getByLabel('Current password', { exact: true }).fill(client.password);
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectToast(page, 'Your password has been changed. Other devices have been signed out.');

    expect(await authorizationStatus(laptopToken)).toBe(401);
    await expect.poll(() => page.getByTestId('devices').locator('li').count(), { timeout: 10_000 }).toBe(1);
    await server.deps.mailer.drain();
    const mail = await server.deps.db
      .selectFrom('outbox')
      .select('subject')
      .where('to_address', '=', client.email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your Poshan password was changed');

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    // The session is cleared when the server has answered: leaving the page before that would keep it,
    // and /login would then send the still signed-in page on to the dashboard.
    await expectToast(page, 'You have been logged out successfully');
    await expectPath(page, '/');
    await page.goto('/login');
    await page.getByLabel('Email').fill(client.email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expectToast(page, 'Welcome back, Ashwini!');
    await expectPath(page, '/dashboard/feeds');
    // The wrong current password was answered with a 400, which the browser logs.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('lists the signed-in devices and signs one out, on a phone', async () => {
    const client = await newClient(server, { firstName: 'Kabir' });
    const api = httpClient(server.url, client.token);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    // The page uses the fixture's session; a second sign-in is "another device".
    const otherToken = await signInElsewhere(client.email, client.password);

    await page.goto('/dashboard/profile');
    const devices = page.getByTestId('devices');
    await expect.poll(() => devices.locator('li').count(), { timeout: 10_000 }).toBe(2);
    // This device is in use; the other signed in moments ago and has not renewed since.
    expect((await devices.getByTestId('device-last-active').allTextContents()).sort()).toEqual(['Active just now', 'Active now']);
    await screenshot(page, 'profile');
    await devices.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
    await expectToast(page, 'That device has been signed out.');
    await expect.poll(() => devices.locator('li').count(), { timeout: 10_000 }).toBe(1);
    expect(await authorizationStatus(otherToken)).toBe(401);
    expect((await api.auth.checkAuthorization.query()).data.id).toBe(client.id);
    expect(errors).toEqual([]);
    await context.close();
  });
});
