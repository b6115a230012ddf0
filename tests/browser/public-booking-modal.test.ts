import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/**
 * Booking modal: the title, the close button and Consult stay on
 * screen while the form scrolls, on a 375 px phone too; after a failed submit
 * the focus is on the first field in error.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Schedule Your Consultation' });

/** True when the control is inside the viewport and is what a tap at its centre would hit (nothing covers it). */
async function onScreen(page: Page, control: Locator): Promise<boolean> {
  const box = await control.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
  if (!inside) return false;
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

/** The accessible label of the focused element. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    if (!el) return null;
    return el.labels?.[0]?.textContent ?? el.closest('fieldset')?.querySelector('legend')?.textContent ?? el.tagName;
  });

async function openBooking(page: Page) {
  await page.goto('/consult?book=true');
  const dialog = dialogOf(page);
  // The form loads when it is first opened (with its rules and the data layer), then asks for the countries.
  await expect.poll(() => dialog.getByLabel('Country').locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(200);
  return dialog;
}

describe('booking modal', () => {
  for (const [label, viewport] of [
    ['375 px phone', PHONE],
    ['375 × 600 small phone', { width: 375, height: 600 }],
    ['1440 px', DESKTOP],
  ] as const) {
    it(`keeps the title, Close and Consult on screen while the form scrolls (${label})`, async () => {
      const { context, errors } = await openContext(browser, server, { viewport });
      const page = await context.newPage();
      const dialog = await openBooking(page);
      const title = dialog.getByRole('heading', { name: 'Schedule Your Consultation' });
      const close = dialog.getByRole('button', { name: 'Close' });
      const consult = dialog.getByRole('button', { name: 'Consult' });

      // The form is taller than the dialog on a phone, so it scrolls.
      const scrolls = await page
        .getByTestId('modal-body')
        .evaluate((body) => body.scrollHeight > body.clientHeight && getComputedStyle(body).overflowY === 'auto');
      if (viewport.width < 640) expect(scrolls, 'the form scrolls inside the dialog').toBe(true);

      // Scroll the way a person does, with the wheel over the form, down to the end and back to the middle.
      const box = (await dialog.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      let deepest = 0;
      for (const [dy, where] of [
        [400, 'part-way'],
        [4000, 'at the end'],
        [-200, 'back up'],
      ] as const) {
        await page.mouse.wheel(0, dy);
        await page.waitForFunction(
          () => {
            // Wait until the wheel's scroll has settled (two frames without movement).
            const body = document.querySelector('[data-testid="modal-body"]') as HTMLElement & { __last?: number; __still?: number };
            const still = body.__last === body.scrollTop;
            body.__still = still ? (body.__still ?? 0) + 1 : 0;
            body.__last = body.scrollTop;
            return body.__still >= 2;
          },
          undefined,
          { polling: 'raf' },
        );
        deepest = Math.max(deepest, await page.getByTestId('modal-body').evaluate((body) => body.scrollTop));
        for (const [name, control] of [
          ['title', title],
          ['Close', close],
          ['Consult', consult],
        ] as const) {
          expect(await onScreen(page, control), `${name} on screen ${where}`).toBe(true);
        }
      }
      if (scrolls) expect(deepest, 'the wheel scrolled the form').toBeGreaterThan(0);
      await screenshot(page, `booking-modal-scrolled-${viewport.width}x${viewport.height}`);

      // The last field is reachable above Consult.
      const lastChoice = dialog.getByRole('radio', { name: 'No' });
      await lastChoice.scrollIntoViewIfNeeded();
      expect(await onScreen(page, lastChoice), 'the last field can be reached').toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('moves focus to the first field in error after a failed submit (375 px)', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    const dialog = await openBooking(page);
    const consult = dialog.getByRole('button', { name: 'Consult' });

    // Nothing filled: Name is the first field, so it takes the focus.
    await consult.click();
    await expect.poll(() => focusedLabel(page)).toBe('Name');
    expect(await dialog.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    // Everything above State filled in: State is now the first field in error, and it is scrolled into view.
    await dialog.getByLabel('Name', { exact: true }).fill('Kavya Menon');
    await dialog.getByLabel('Email', { exact: true }).fill('kavya.focus@example.test');
    await dialog.getByLabel('Age', { exact: true }).fill('31');
    await dialog.getByLabel('Height (feet)').fill('5.4');
    await dialog.getByLabel('Weight (kg)').fill('62');
    // Gender has no default: it is chosen like any other field above State.
    await dialog.getByRole('radio', { name: 'Female' }).check();
    await page.getByTestId('modal-body').evaluate((body) => body.scrollTo({ top: 0 }));
    await consult.click();
    await expect.poll(() => focusedLabel(page)).toBe('State');
    expect(await onScreen(page, dialog.getByLabel('State', { exact: true })), 'State is on screen').toBe(true);
    await screenshot(page, 'booking-modal-focus-375');
    expect(errors).toEqual([]);
    await context.close();
  });
});
