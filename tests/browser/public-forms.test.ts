import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPPORT_REQUEST_RECEIVED } from '../../server/support/schema.js';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { requestBarrier } from '../helpers/pages.js';
import { fieldError } from '../helpers/public-site.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/** The booking modal and the Contact Us form, against the real server and database. */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const MODAL = 'Schedule Your Consultation';
const dialogOf = (page: Page) => page.getByRole('dialog', { name: MODAL });
const pathAndQuery = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** Every country request the page makes. */
function countCountryCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('countries.list')) calls.push(r.url());
  });
  return calls;
}

async function fillBooking(
  page: Page,
  values: { name: string; email: string; age: string; height: string; weight: string; state: string; contact: string },
) {
  const dialog = dialogOf(page);
  await dialog.getByLabel('Name', { exact: true }).fill(values.name);
  await dialog.getByLabel('Email', { exact: true }).fill(values.email);
  await dialog.getByLabel('Age', { exact: true }).fill(values.age);
  await dialog.getByLabel('Height (feet)').fill(values.height);
  await dialog.getByLabel('Weight (kg)').fill(values.weight);
  await dialog.getByLabel('State', { exact: true }).fill(values.state);
  await dialog.getByLabel('Contact number').fill(values.contact);
}

describe('consultation modal', () => {
  for (const [label, viewport] of [
    ['375 px', PHONE],
    ['1440 px', DESKTOP],
  ] as const) {
    it(`opens from Book now and loads the countries only then (${label})`, async () => {
      const { context, errors } = await openContext(browser, server, { viewport });
      const page = await context.newPage();
      const countryCalls = countCountryCalls(page);
      await page.goto('/consult');
      const bookNow = page.getByRole('button', { name: 'Book now' });
      await bookNow.waitFor();
      expect(await page.locator('#contact').textContent()).toMatch(
        /Book your consultation now!.*callback.*Mon-Sat09:00AM-8:00PM.*Sun10:00AM-4:00PM/s,
      );
      await requestBarrier(page);
      expect(countryCalls, 'no countries before the form opens').toEqual([]);

      await bookNow.click();
      const dialog = dialogOf(page);
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(pathAndQuery(page)).toBe('/consult?book=true');
      // The form loads when it is first opened (with its rules and the data layer), then asks for the countries.
      await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(200);
      expect(countryCalls, countryCalls.join('\n')).toHaveLength(1);
      expect(
        await dialog
          .getByLabel('Country')
          .locator('option')
          .filter({ hasText: /^India$/ })
          .count(),
      ).toBe(1);

      // No answer is assumed: no gender and no medical-condition answer yet; the form fits the screen.
      for (const gender of ['Male', 'Female', 'Other'])
        expect(await dialog.getByRole('radio', { name: gender, exact: true }).isChecked(), gender).toBe(false);
      expect(await dialog.getByRole('radio', { name: 'Yes' }).isChecked()).toBe(false);
      expect(await dialog.getByRole('radio', { name: 'No' }).isChecked()).toBe(false);
      expect(await dialog.getByRole('radio', { name: 'Yes' }).getAttribute('value')).toBe('1');
      expect(await dialog.getByRole('radio', { name: 'No' }).getAttribute('value')).toBe('0');
      const width = await dialog.evaluate((el) => el.getBoundingClientRect().width);
      if (viewport.width < 640) expect(width).toBeCloseTo(viewport.width * 0.9, 0);
      else expect(width).toBeCloseTo(450, 0);
      expect(await dialog.getByRole('button', { name: 'Consult' }).isVisible()).toBe(true);

      // Closing (close icon) removes ?book from the address.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(pathAndQuery(page)).toBe('/consult');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('opens straight away for ?book= with any value', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    for (const query of ['?book=true', '?book=1', '?book=']) {
      await page.goto(`/consult${query}`);
      await expect.poll(() => dialogOf(page).isVisible(), { message: query }).toBe(true);
    }
    await page.goto('/consult');
    await page.getByRole('button', { name: 'Book now' }).waitFor();
    expect(await dialogOf(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows every validation message under its field', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/consult?book=true');
    const dialog = dialogOf(page);
    // The form loads when it is first opened (with its rules and the data layer), then asks for the countries.
    await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(200);
    await dialog.getByRole('button', { name: 'Consult' }).click();

    const expected: [string, string][] = [
      ['Name', 'Name is required'],
      ['Email', 'Email is required'],
      ['Age', 'Age is required'],
      ['Height (feet)', 'Height is required'],
      ['Weight (kg)', 'Weight is required'],
      ['State', 'State is required'],
      ['Contact number', 'Contact is required'],
      ['Country', 'Country is required'],
    ];
    for (const [label, message] of expected) {
      await expect.poll(() => fieldError(dialog.page(), label), { message: label }).toBe(message);
    }
    const condition = dialog.getByRole('group', { name: 'Do you have a medical condition?' });
    expect(await condition.getByRole('alert').textContent()).toBe('Condition is required');
    // Gender has no default: left unanswered, it is asked for.
    expect(await dialog.getByRole('group', { name: 'Gender' }).getByRole('alert').textContent()).toBe('Gender is required');
    expect(await dialog.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    // The limits: three-digit age and weight, 10 to 13 digits of contact.
    await fillBooking(page, {
      name: 'A',
      email: 'a@example',
      age: '1000',
      height: '5.5',
      weight: '1000',
      state: 'Goa',
      contact: '12345',
    });
    await dialog.getByRole('button', { name: 'Consult' }).click();
    await expect.poll(() => fieldError(page, 'Age')).toBe('Age cannot exceed 3 digits');
    // A real address check, on the field, in the app's words (the server's rule, shared).
    expect(await fieldError(page, 'Email')).toBe('Enter a valid email address, like name@example.com');
    expect(await fieldError(page, 'Weight (kg)')).toBe('Weight cannot exceed 3 digits');
    expect(await fieldError(page, 'Contact number')).toBe('Contact must be between 10 and 13 digits');
    await dialog.getByLabel('Contact number').fill('12345678901234');
    await dialog.getByRole('button', { name: 'Consult' }).click();
    await expect.poll(() => fieldError(page, 'Contact number')).toBe('Contact must be between 10 and 13 digits');
    // Fixing a field clears its message; nothing was sent.
    await dialog.getByLabel('Age', { exact: true }).fill('34');
    await dialog.getByRole('button', { name: 'Consult' }).click();
    await expect.poll(() => fieldError(page, 'Age')).toBe(null);
    expect(
      Number(
        (
          await server.deps.db
            .selectFrom('consultations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      ),
    ).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('books a callback: overlay while sending, a confirmation screen saying what the mail says, stored in the database, then reset', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    // Hold the booking call for a moment so the overlay can be seen.
    let releaseBooking: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      releaseBooking = resolve;
    });
    await page.route('**/trpc/consultation.book**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/consult');
    await page.getByRole('button', { name: 'Book now' }).click();
    const dialog = dialogOf(page);
    // The form loads when it is first opened (with its rules and the data layer), then asks for the countries.
    await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(200);
    await fillBooking(page, {
      name: 'Kavya Menon',
      email: 'kavya@example.test',
      age: '31',
      height: `5'4"`,
      weight: '68.5',
      state: 'Kerala',
      contact: '+91 98470-12345',
    });
    await dialog.getByRole('radio', { name: 'Female' }).check();
    await dialog.getByRole('radio', { name: 'No' }).check();
    await dialog.getByLabel('Country').selectOption({ label: 'India' });
    await dialog.getByRole('button', { name: 'Consult' }).click();

    await expect.poll(() => page.getByTestId('loading-overlay').isVisible()).toBe(true);
    releaseBooking();
    // Not a toast: the dialog says what became of the request and what happens next, until she closes it.
    // The dialog is then named by its new title.
    const done = page.getByRole('dialog', { name: 'We will call you back' });
    const screen = done.getByTestId('booking-confirmation');
    await expect.poll(() => screen.isVisible()).toBe(true);
    const steps = await screen.getByTestId('visitor-steps').locator('li').allTextContents();
    expect(steps[0]).toBe('A dietitian calls you on +91 98470 12345 within one working day to agree a time that suits you.');
    await expect.poll(() => page.getByTestId('loading-overlay').count()).toBe(0);
    await done.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(pathAndQuery(page)).toBe('/consult');

    const rows = await server.deps.db.selectFrom('consultations').selectAll().where('email', '=', 'kavya@example.test').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Kavya Menon',
      gender: 2,
      age: 31,
      height: `5'4"`,
      weight: 68.5,
      state: 'Kerala',
      contact: '919847012345',
      country_id: 356,
      is_medical_condition: false,
    });
    // The visitor is mailed what happens next, with the number we will call.
    await server.deps.mailer.drain();
    const mail = await server.deps.db
      .selectFrom('outbox')
      .select(['subject', 'body_text', 'body_html'])
      .where('to_address', '=', 'kavya@example.test')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`We will call you back (request #${rows[0]!.id})`);
    expect(mail.body_text).toContain('What happens next'.toUpperCase());
    // The mail says what the screen said, step by step.
    for (const step of steps) expect(mail.body_text).toContain(step);
    expect(mail.body_html).toContain('Poshan');

    // Opening again shows an empty form.
    await page.getByRole('button', { name: 'Book now' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    expect(await dialog.getByRole('radio', { name: 'Female', exact: true }).isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets the form when closed by the icon, Escape or a click outside', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/consult');
    const dialog = dialogOf(page);
    const closers: [string, () => Promise<void>][] = [
      ['close icon', () => dialog.getByRole('button', { name: 'Close' }).click()],
      ['Escape', () => page.keyboard.press('Escape')],
      ['outside click', () => page.mouse.click(5, 5)],
    ];
    for (const [how, close] of closers) {
      await page.getByRole('button', { name: 'Book now' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByLabel('Name', { exact: true }).fill('Half finished');
      await dialog.getByRole('radio', { name: 'Other' }).check();
      await dialog.getByRole('button', { name: 'Consult' }).click();
      await expect.poll(() => fieldError(page, 'Email')).toBe('Email is required');
      await close();
      await expect.poll(() => dialog.count(), { message: how }).toBe(0);
      await page.getByRole('button', { name: 'Book now' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue(), how).toBe('');
      expect(await dialog.getByRole('radio', { name: 'Other', exact: true }).isChecked(), how).toBe(false);
      expect(await fieldError(page, 'Email'), how).toBe(null);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the server message in an error toast when booking fails', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/consult?book=true');
    const dialog = dialogOf(page);
    // The form loads when it is first opened (with its rules and the data layer), then asks for the countries.
    await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(200);
    await fillBooking(page, {
      name: 'Ravi',
      email: 'ravi@example.test',
      age: '40',
      height: '6',
      weight: '80',
      state: 'Delhi',
      contact: '9876543210',
    });
    await dialog.getByRole('radio', { name: 'Female' }).check();
    await dialog.getByRole('radio', { name: 'Yes' }).check();
    await dialog.getByLabel('Country').selectOption({ label: 'India' });
    await page.route('**/trpc/consultation.book**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify([
          {
            error: {
              json: {
                message: 'Bookings are paused for maintenance. Please try again in a few minutes.',
                code: -32603,
                data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 503 },
              },
            },
          },
        ]),
      }),
    );
    await dialog.getByRole('button', { name: 'Consult' }).click();
    await expect.poll(() => page.getByText('Bookings are paused for maintenance.', { exact: false }).isVisible()).toBe(true);
    // The modal stays open with what was typed, and the overlay is gone.
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Ravi');
    expect(await page.getByTestId('loading-overlay').count()).toBe(0);
    // The browser logs the 503 itself; nothing else went wrong.
    expect(errors.filter((e) => !e.includes('status of 503'))).toEqual([]);
    await context.close();
  });
});

describe('contact form', () => {
  it('asks a visitor for name, email and message, and stores the request', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/contact-us');
    const send = page.getByRole('button', { name: 'Send Message' });
    await send.click();
    await expect.poll(() => fieldError(page, 'Name')).toBe('Name is required');
    expect(await fieldError(page, 'Email')).toBe('Email is required');
    expect(await fieldError(page, 'Message')).toBe('Message is required');

    // An address no reply can reach is refused in the page, with the server's own message, before any request.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('support.create')) sent.push(r.url());
    });
    await page.getByLabel('Name', { exact: true }).fill('Neha Kulkarni');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Message', { exact: true }).fill('Can I switch from the 1 month plan to the 6 month plan?');
    await send.click();
    await expect.poll(() => fieldError(page, 'Email')).toBe('Enter a valid email address, like name@example.com');
    await requestBarrier(page);
    expect(sent).toEqual([]);

    await page.getByLabel('Email', { exact: true }).fill('neha@example.test');
    await send.click();
    await expect.poll(() => page.getByText(SUPPORT_REQUEST_RECEIVED).isVisible()).toBe(true);
    // Cleared for the next message.
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    const rows = await server.deps.db.selectFrom('support_requests').selectAll().where('email', '=', 'neha@example.test').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: null,
      name: 'Neha Kulkarni',
      message: 'Can I switch from the 1 month plan to the 6 month plan?',
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks a signed-in client only for the message', async () => {
    const user = await server.user({ firstName: 'Asha', lastName: 'Verma' });
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP, as: user });
    const page = await context.newPage();
    await page.goto('/contact-us');
    const send = page.getByRole('button', { name: 'Send Message' });
    await send.waitFor();
    expect(await page.getByLabel('Name', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(0);
    await send.click();
    await expect.poll(() => fieldError(page, 'Message')).toBe('Message is required');
    await page.getByLabel('Message', { exact: true }).fill('Please move my follow-up to Friday.');
    await send.click();
    await expect.poll(() => page.getByText(SUPPORT_REQUEST_RECEIVED).isVisible()).toBe(true);
    const rows = await server.deps.db.selectFrom('support_requests').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: user.email, name: 'Asha Verma', message: 'Please move my follow-up to Friday.' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
