import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serviceDay } from '../../server/time.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { callerFor } from '../helpers/callers.js';
import { newClient } from '../helpers/fixtures.js';
import { screenshot, signedInPage, signInAsAdmin } from '../helpers/pages.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../helpers/server.js';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
/** Serious and critical axe-core violations, on the whole page or within `selector`. */
async function seriousAxeViolations(page: Page, selector?: string): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: object): Promise<{ violations: unknown[] }> } }).axe;
    const context = sel ? { include: [...document.querySelectorAll(sel)] } : document;
    return (await axe.run(context, { resultTypes: ['violations'] })).violations;
  }, selector ?? null)) as { id: string; impact: string | null; nodes: { target: string[] }[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * What waits for the dietitian, live: the Overview's counts move when a
 * client writes, without a reload; the care record changes on one side show
 * on the other.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const day = (offset: number) =>
  new Date(Date.parse(`${serviceDay(new Date())}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

describe('the console Overview and the care record, live', () => {
  it('at 1440 px the Overview counts an unread message the moment it is sent, and each count opens the page that clears it', async () => {
    const meera = await server.user({ role: 'admin', firstName: 'Meera' });
    const asha = await newClient(server, { firstName: 'Asha', lastName: 'Verma', heightM: 1.6, weightKg: 72 });
    const dietitian = await callerFor(server, meera.token);
    await dietitian.admin.subscriptions.assign({
      clientId: asha.id,
      planType: 'WL',
      planId: 'tier-commitment',
      startDate: day(-20),
      amountReceived: 1000,
    });
    const admin = await signedInPage(browser, server, null, { viewport: DESKTOP });
    try {
      await signInAsAdmin(admin.page, meera);
      const unread = admin.page.getByTestId('stat-Unread messages');
      await expect.poll(() => unread.textContent(), { timeout: 15_000 }).toBe('0');
      expect(await admin.page.getByTestId('stat-No meals logged').textContent()).toBe('1');

      const { conversationId } = await dietitian.admin.messages.forClient({ clientId: asha.id });
      await (await callerFor(server, asha.token)).messages.send({
        conversationId,
        text: 'Can I swap dinner and lunch?',
        clientMessageId: randomUUID(),
      });
      await expect.poll(() => unread.textContent(), { timeout: 5_000 }).toBe('1');
      await (await callerFor(server, asha.token)).journal.create({
        clientEntryId: randomUUID(),
        meal: 'lunch',
        description: 'Dal and two rotis',
      } as never);
      await expect.poll(() => admin.page.getByTestId('stat-No meals logged').textContent(), { timeout: 5_000 }).toBe('0');

      await screenshot(admin.page, 'overview-live');
      // The counts and the health panel; the shell's own checks are the shell's tests'.
      expect(await seriousAxeViolations(admin.page, '[data-testid="overview-follow-ups"], [data-testid="operational-health"]')).toEqual([]);
      const links = admin.page.getByTestId('overview-follow-ups').getByRole('link');
      expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
        '/admin/messages',
        '/admin/payments',
        '/admin/clients',
        '/admin/follow-ups?show=no-meals',
        '/admin/follow-ups?show=awaiting-reply',
        '/admin/follow-ups?show=overdue',
      ]);
    } finally {
      await admin.context.close();
    }
  }, 240_000);

  it('goals a dietitian sets show on the client’s phone at once, while her console page is open', async () => {
    const meera = await server.user({ role: 'admin', firstName: 'Meera' });
    const rohan = await newClient(server, { firstName: 'Rohan', lastName: 'Mehta', heightM: 1.75, weightKg: 84 });
    const phone = await signedInPage(browser, server, rohan, { viewport: PHONE });
    const admin = await signedInPage(browser, server, null, { viewport: DESKTOP });
    try {
      await phone.page.goto('/dashboard/progress');
      await expect.poll(() => phone.page.getByTestId('goals-card').textContent(), { timeout: 15_000 }).toContain('No goals');
      await signInAsAdmin(admin.page, meera);
      await admin.page.goto(`/admin/clients/${rohan.id}`);
      await admin.page.getByTestId('client-care-record').waitFor();

      const dietitian = await callerFor(server, meera.token);
      await dietitian.careRecord.goals.create({
        clientId: rohan.id,
        clientRequestId: randomUUID(),
        targetWeightKg: 78,
        targetDate: day(90),
        waistCm: null,
        waterGlasses: 8,
        steps: null,
        habit: null,
      });
      await expect.poll(() => phone.page.getByTestId('goals-card').textContent(), { timeout: 5_000 }).toContain('78');
      await screenshot(phone.page, 'care-record-live-goals');
      expect(await seriousAxeViolations(phone.page)).toEqual([]);
    } finally {
      await phone.context.close();
      await admin.context.close();
    }
  }, 240_000);
});
