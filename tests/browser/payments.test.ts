import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { formatDay } from '../../server/format.js';
import { serviceDay } from '../../server/time.js';
import { callerFor } from '../helpers/callers.js';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { seriousAxeViolations } from '../helpers/public-site.js';
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

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
const formatInr = (paise: number) => inr.format(paise / 100);
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const SETTINGS = {
  legalName: 'Poshan Nutrition LLP',
  address: '12 MG Road, Pune 411001',
  stateCode: '27',
  gstin: '27ABCDE1234F1Z5',
  sacCode: '999319',
  taxRateBp: 1800,
  upiVpa: 'poshan@okaxis',
  payeeName: 'Poshan Nutrition',
  invoicePrefix: 'PSN',
} as const;

describe('paying for a plan', () => {
  it('the dietitian issues an invoice; the client pays by UPI and claims it; once confirmed the plan is active', async () => {
    const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const client = await newClient(server, { firstName: 'Kiran', lastName: 'Das' });
    const caller = await callerFor(server, admin.token);
    await caller.admin.payments.saveSettings(SETTINGS);

    // The client's page is open before the invoice exists.
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/payments');
    await expect.poll(() => phone.page.getByTestId('payments-empty').count(), LIVE).toBe(1);

    const consoleCtx = await openContext(browser, server, { as: { ...admin, fullName: 'Meera Iyer' }, viewport: DESKTOP });
    const desk = await consoleCtx.context.newPage();
    await desk.goto('/admin/payments');
    await desk.getByRole('button', { name: 'Issue an invoice' }).click();
    // The client is found by typing part of her name, and picked with the keyboard.
    const picker = desk.getByRole('combobox', { name: 'Client', exact: true });
    await picker.fill('Kir');
    await expect.poll(() => desk.getByRole('option', { name: new RegExp(client.fullName) }).count(), LIVE).toBe(1);
    await picker.press('ArrowDown');
    await picker.press('Enter');
    await expect.poll(() => desk.getByTestId('picked-client').textContent(), LIVE).toContain(client.fullName);
    await desk.getByLabel('Plan (starts on payment)').selectOption({ index: 1 });
    // Before the state is chosen the preview says GST is still to be worked out; then it shows the split and the total.
    await expect.poll(() => desk.getByTestId('invoice-preview').textContent(), LIVE).toContain('Choose the client’s state to work out GST');
    await desk.getByLabel(/^Client’s state/).selectOption({ label: 'Maharashtra' });
    await expect.poll(() => desk.getByTestId('preview-cgst').count(), LIVE).toBe(1);
    const previewTotal = await desk.getByTestId('preview-total').textContent();
    const previewCgst = await desk.getByTestId('preview-cgst').textContent();
    await screenshot(desk, 'admin-payments-issue');
    expect(await seriousAxeViolations(desk)).toEqual([]);
    await desk.getByRole('button', { name: 'Issue invoice' }).click();
    await expectToast(desk, /Invoice PSN\/\d\d-\d\d\/0001 issued/);
    await expect.poll(() => desk.getByTestId('invoice-row').count(), LIVE).toBe(1);
    const [invoice] = (await caller.invoice.list({})).items;
    // The preview was the invoice: the same total and tax, to the paisa.
    expect(previewTotal).toBe(formatInr(invoice!.totalPaise));
    expect(previewCgst).toBe(formatInr(invoice!.cgstPaise));

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

    // The claim reaches the console live too, and the sidebar counts it.
    await expect.poll(() => desk.getByRole('button', { name: 'Confirm', exact: true }).count(), LIVE).toBe(1);
    await expect.poll(() => desk.getByTestId('badge-payments').textContent(), LIVE).toBe('1');
    await desk.getByRole('button', { name: 'Confirm', exact: true }).click();
    // Confirm asks first, naming the UTR and the plan it starts and when.
    const dialog = desk.getByRole('dialog', { name: `Confirm the payment for ${invoice!.number}?` });
    await expect.poll(() => dialog.textContent(), LIVE).toContain('412345678901');
    await expect
      .poll(() => dialog.getByTestId('plan-on-payment').textContent(), LIVE)
      .toContain(`from ${formatDay(serviceDay(new Date()))}`);
    await screenshot(desk, 'admin-payments-confirm');
    expect(await seriousAxeViolations(desk)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm and start the plan' }).click();
    // ...and then says what it did.
    await expectToast(desk, new RegExp(`${escapeRe(invoice!.number)} is paid\\. .+ runs from ${formatDay(serviceDay(new Date()))} to `));
    await expect.poll(() => desk.getByTestId('badge-payments').count(), LIVE).toBe(0);
    await screenshot(desk, 'admin-payments');
    await desk.setViewportSize(PHONE);
    await screenshot(desk, 'admin-payments');
    // The client's page follows the confirmation live: the invoice moves to the past ones, with its receipt.
    await expect.poll(() => phone.page.getByTestId('past-invoice').count(), LIVE).toBe(1);
    await screenshot(phone.page, 'dashboard-payments-paid');

    await phone.page.goto('/dashboard/active-subscription');
    await expect.poll(() => phone.page.getByTestId('subscription-paid').textContent(), LIVE).toBe(formatInr(invoice!.totalPaise));
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await consoleCtx.context.close();
  });

  it('a renewal paid in cash: the dietitian records it, and the client sees the running plan first and the next one with its start date', async () => {
    const admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Rao' });
    const caller = await callerFor(server, admin.token);
    await caller.admin.payments.saveSettings(SETTINGS);
    // The plan she is on now, paid by bank transfer and recorded through the API.
    const running = await caller.admin.payments.issue({
      clientId: client.id,
      plan: { planType: 'WL', planId: 'tier-kickstart' },
      clientStateCode: '27',
      clientRequestId: randomUUID(),
    });
    await caller.admin.payments.recordPayment({
      id: running.id,
      method: 'bank_transfer',
      amountPaise: running.totalPaise,
      reference: 'HDFC-N123456789',
      receivedOn: serviceDay(new Date()),
      clientRequestId: randomUUID(),
    });
    const renewal = await caller.admin.payments.issue({
      clientId: client.id,
      plan: { planType: 'WL', planId: 'tier-commitment' },
      clientStateCode: '27',
      clientRequestId: randomUUID(),
    });
    const [current] = await (await callerFor(server, client.token)).subscription.active({ active: true });
    const nextStart = new Date(Date.parse(`${current!.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

    const consoleCtx = await openContext(browser, server, { as: { ...admin, fullName: 'Meera Iyer' }, viewport: DESKTOP });
    const desk = await consoleCtx.context.newPage();
    await desk.goto('/admin/payments');
    const row = desk.getByTestId('invoice-row').filter({ hasText: renewal.number });
    await row.getByRole('button', { name: 'Record a payment' }).click();
    const dialog = desk.getByRole('dialog', { name: `Record a payment for ${renewal.number}` });
    await expect.poll(() => dialog.getByTestId('plan-on-payment').textContent(), LIVE).toContain(`from ${formatDay(nextStart)}`);
    expect(await dialog.getByLabel('Amount received (₹)').inputValue()).toBe((renewal.totalPaise / 100).toFixed(2));
    // A wrong amount is refused on its field, saying the invoice's total.
    await dialog.getByLabel('Amount received (₹)').fill('9599');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect.poll(() => dialog.textContent(), LIVE).toContain(`must be the invoice’s total, ${formatInr(renewal.totalPaise)}`);
    await dialog.getByLabel('Amount received (₹)').fill(String(renewal.totalPaise / 100));
    await dialog.getByLabel('Receipt number (optional)').fill('Receipt 42');
    await screenshot(desk, 'admin-payments-record');
    expect(await seriousAxeViolations(desk)).toEqual([]);
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectToast(desk, new RegExp(`${escapeRe(renewal.number)} is paid\\. .+ runs from ${formatDay(nextStart)} to `));
    await expect.poll(() => row.textContent(), LIVE).toContain('Cash · Ref Receipt 42');
    expect((await caller.invoice.get({ id: renewal.id })).status).toBe('paid');

    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/active-subscription');
    const cards = phone.page.getByTestId('subscription-card');
    await expect.poll(() => cards.count(), LIVE).toBe(2);
    // The running plan first, marked Active; the renewal after it, labelled with the day it starts.
    expect(await cards.nth(0).getAttribute('data-status')).toBe('active');
    expect(await cards.nth(0).textContent()).toContain('Active');
    expect(await cards.nth(1).getAttribute('data-status')).toBe('upcoming');
    expect(await cards.nth(1).getByTestId('subscription-upcoming').textContent()).toBe(`Starts ${formatDay(nextStart)}`);
    expect(await cards.nth(1).textContent()).not.toContain('Active');
    // Amount paid is each invoice's total.
    expect(await cards.nth(0).getByTestId('subscription-paid').textContent()).toBe(formatInr(running.totalPaise));
    expect(await cards.nth(1).getByTestId('subscription-paid').textContent()).toBe(formatInr(renewal.totalPaise));
    expect(await cards.nth(1).textContent()).toContain(renewal.number);
    await screenshot(phone.page, 'dashboard-subscription-renewed');
    expect(await seriousAxeViolations(phone.page)).toEqual([]);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await consoleCtx.context.close();
  });
});
