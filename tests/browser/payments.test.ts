import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callerFor } from '../helpers/callers.js';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

const LIVE = { timeout: 20_000 };
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The QR code on the page, read back from its pixels. */
async function decodeQr(page: Page): Promise<string | null> {
  const pixels = await page.getByTestId('upi-qr').evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, rgba: Array.from(data.data) };
  });
  return jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data ?? null;
}

describe('paying for a plan', () => {
  it('the dietitian issues an invoice; the client pays by UPI and claims it; once confirmed the plan is active', async () => {
    const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const client = await newClient(server, { firstName: 'Kiran', lastName: 'Das' });
    const caller = await callerFor(server, admin.token);
    await caller.admin.payments.saveSettings({
      legalName: 'Poshan Nutrition LLP',
      address: '12 MG Road, Pune 411001',
      stateCode: '27',
      gstin: '27ABCDE1234F1Z5',
      sacCode: '999319',
      taxRateBp: 1800,
      upiVpa: 'poshan@okaxis',
      payeeName: 'Poshan Nutrition',
      invoicePrefix: 'PSN',
    });

    // The client's page is open before the invoice exists.
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/payments');
    await expect.poll(() => phone.page.getByTestId('payments-empty').count(), LIVE).toBe(1);

    const consoleCtx = await openContext(browser, server, { as: { ...admin, fullName: 'Meera Iyer' }, viewport: DESKTOP });
    const desk = await consoleCtx.context.newPage();
    await desk.goto('/admin/payments');
    await desk.getByRole('button', { name: 'Issue an invoice' }).click();
    await desk.getByLabel('Client', { exact: true }).selectOption({ label: `${client.fullName} (${client.email})` });
    await desk.getByLabel('Plan (starts on payment)').selectOption({ index: 1 });
    await desk.getByLabel(/^Client’s state/).selectOption({ label: 'Maharashtra' });
    await screenshot(desk, 'admin-payments-issue');
    await desk.getByRole('button', { name: 'Issue invoice' }).click();
    await expectToast(desk, /Invoice PSN\/\d\d-\d\d\/0001 issued/);
    await expect.poll(() => desk.getByTestId('invoice-row').count(), LIVE).toBe(1);
    const [invoice] = (await caller.invoice.list({})).items;

    // The client sees it live (invoice.events), without a reload or a focus, with a QR code that reads back to the exact UPI link.
    await expect.poll(() => phone.page.getByTestId('open-invoice').count(), LIVE).toBe(1);
    await expect.poll(() => phone.page.getByTestId('badge-payments').textContent(), LIVE).toContain('1');
    await expect.poll(() => decodeQr(phone.page), LIVE).toBe(invoice!.upiLink);
    expect(await phone.page.getByTestId('upi-button').getAttribute('href')).toBe(invoice!.upiLink);
    expect(await phone.page.getByTestId('invoice-total').textContent()).toBe('₹2,182.00');
    // With a gateway, the console shows an issued invoice's payment link too (set here as the gateway would have).
    const payLink = 'https://rzp.io/i/test-link';
    await server.deps.db.updateTable('invoices').set({ razorpay_link_url: payLink }).where('id', '=', invoice!.id).execute();
    await desk.reload();
    await expect.poll(() => desk.getByRole('link', { name: 'Pay online link' }).getAttribute('href'), LIVE).toBe(payLink);
    await screenshot(phone.page, 'dashboard-payments');
    await phone.page.setViewportSize(DESKTOP);
    await screenshot(phone.page, 'dashboard-payments');
    await phone.page.setViewportSize(PHONE);

    await phone.page.getByLabel('UTR / UPI reference (12 digits)').fill('4123 4567 8901');
    await phone.page.getByRole('button', { name: 'I have paid' }).click();
    await expectToast(phone.page, 'Thank you! Your dietitian will confirm the payment soon.');
    await expect.poll(() => phone.page.getByTestId('claim-pending').textContent(), LIVE).toContain('412345678901');

    // The claim reaches the console live too.
    await expect.poll(() => desk.getByRole('button', { name: 'Confirm' }).count(), LIVE).toBe(1);
    await desk.getByRole('button', { name: 'Confirm' }).click();
    await expectToast(desk, /is paid and the plan is active/);
    await screenshot(desk, 'admin-payments');
    await desk.setViewportSize(PHONE);
    await screenshot(desk, 'admin-payments');
    // The client's page follows the confirmation live: the invoice moves to the past ones, with its receipt.
    await expect.poll(() => phone.page.getByTestId('past-invoice').count(), LIVE).toBe(1);
    await screenshot(phone.page, 'dashboard-payments-paid');

    await phone.page.goto('/dashboard/active-subscription');
    await expect.poll(() => phone.page.getByTestId('subscription-card').textContent(), LIVE).toContain('₹2,182');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await consoleCtx.context.close();
  });
});
