import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { newClient } from '../helpers/fixtures.js';
import { screenshot, signedInPage } from '../helpers/pages.js';
import { seriousAxeViolations } from '../helpers/public-site.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

/** A camera-like 4000×3000 JPEG of about 3 MB: soft shapes with sensor-like grain. */
export async function cameraPhoto(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const blobs = await sharp({
    create: { width: 160, height: 120, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  })
    .png()
    .toBuffer();
  const base = await sharp(blobs).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 0, sigma: 10 } },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, (base[i] ?? 0) + (grain[i] ?? 0)));
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Sizes of the files the page uploads (the multipart body of POST /api/attachments). */
function uploadSizes(page: Page): number[] {
  const sizes: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/attachments')
      sizes.push(request.postDataBuffer()?.length ?? 0);
  });
  return sizes;
}

/** Every percentage an upload meter showed, recorded as it changes (an upload on localhost is quick). */
async function recordPercents(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { percents: string[] }).percents = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="upload-progress"]')) {
        const text = el.textContent ?? '';
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { percents: string[] }).percents);
}

let photo: Buffer;
beforeAll(async () => {
  photo = await cameraPhoto();
}, 120_000);

describe('messages on a phone', () => {
  it('the thread fills the screen and is the only scroller; the composer stays in sight with the keyboard open', async () => {
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Pinned' });
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    const { page } = phone;
    await page.goto('/dashboard/messages');
    await expect.poll(() => page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    for (let i = 1; i <= 14; i++) {
      await box.fill(`Message number ${i}: what I ate and how I felt today.`);
      await page.getByRole('button', { name: 'Send' }).click();
    }
    await expect
      .poll(() => page.getByTestId('chat-message').filter({ hasText: 'Message number 14' }).getAttribute('data-status'), {
        timeout: 15_000,
      })
      .toBe('sent');
    // Send puts the focus back in the box (writing on, the tab bar aside); first the screen as she reads it.
    await box.blur();
    await expect.poll(() => page.getByTestId('tab-bar').isVisible(), { timeout: 5_000 }).toBe(true);
    const layout = () =>
      page.evaluate(() => {
        const composer = document.querySelector('[data-testid="composer"]')!.getBoundingClientRect();
        const thread = document.querySelector('[data-testid="chat-thread"]') as HTMLElement;
        const seen = window.visualViewport?.height ?? window.innerHeight;
        return {
          composerTop: composer.top,
          composerBottom: composer.bottom,
          seen,
          pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1,
          threadScrolls: thread.scrollHeight > thread.clientHeight,
        };
      });
    // The tab bar's return animates the page's bottom padding (200 ms): wait for the chat to settle refitted.
    await expect
      .poll(
        async () => {
          const settled = await layout();
          // Above the tab bar (64 px), not below the fold.
          return settled.composerBottom <= PHONE.height - 64 && !settled.pageScrolls;
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    let now = await layout();
    expect(now.pageScrolls).toBe(false);
    expect(now.threadScrolls).toBe(true);
    // Above the tab bar (64 px), not below the fold.
    expect(now.composerBottom).toBeLessThanOrEqual(PHONE.height - 64);
    await screenshot(page, 'e2-messages-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The keyboard opens: the visible area shrinks by ~330 px. The composer stays above it, the tab bar steps aside.
    await box.focus();
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height - 330 });
    await expect.poll(async () => (await layout()).composerBottom, { timeout: 5_000 }).toBeLessThanOrEqual(PHONE.height - 330);
    now = await layout();
    expect(now.composerTop).toBeGreaterThan(64);
    expect(now.pageScrolls).toBe(false);
    expect(
      await page
        .getByTestId('tab-bar')
        .isVisible()
        .catch(() => false),
    ).toBe(false);
    // The newest message is still in sight above the composer.
    expect(await page.getByTestId('chat-message').filter({ hasText: 'Message number 14' }).isVisible()).toBe(true);
    await screenshot(page, 'e2-messages-keyboard');
    await page.setViewportSize(PHONE);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('a message written offline waits on the phone and is sent once when the connection returns', async () => {
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Offline' });
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    const { page, context } = phone;
    await page.goto('/dashboard/messages');
    await expect.poll(() => page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);
    await context.setOffline(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    expect(await box.isEnabled()).toBe(true);
    await box.fill('Written on the train without signal');
    await page.getByRole('button', { name: 'Send' }).click();
    const waiting = page.getByTestId('chat-pending').filter({ hasText: 'without signal' });
    await expect.poll(() => waiting.getAttribute('data-status'), { timeout: 10_000 }).toBe('waiting');
    await screenshot(page, 'e2-messages-offline');
    await context.setOffline(false);
    const sent = page.getByTestId('chat-message').filter({ hasText: 'without signal' });
    await expect.poll(() => sent.getAttribute('data-status'), { timeout: 20_000 }).toBe('sent');
    const stored = () =>
      server.deps.db.selectFrom('messages').select('id').where('text', '=', 'Written on the train without signal').execute();
    expect((await stored()).length).toBe(1);
    // A reload sends nothing again.
    await page.reload();
    await expect.poll(() => sent.count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('chat-pending').count()).toBe(0);
    expect((await stored()).length).toBe(1);
    expect(phone.errors.filter((e) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|WebSocket/.test(e))).toEqual([]);
    await context.close();
  });

  it('a 3 MB photo goes with a message as under 400 KB, with its progress shown; an unsupported file is named in full', async () => {
    expect(photo.length).toBeGreaterThan(2_500_000);
    const client = await newClient(server, { firstName: 'Asha', lastName: 'Photo' });
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    const { page } = phone;
    await page.goto('/dashboard/messages');
    await expect.poll(() => page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);
    const sizes = uploadSizes(page);
    const percents = await recordPercents(page);
    const input = page.getByTestId('composer-file-input');
    await input.setInputFiles({ name: 'IMG_20261128_lunch.jpg', mimeType: 'image/jpeg', buffer: photo }, { timeout: 60_000 });
    const chip = page.getByTestId('composer-files').locator('li').first();
    await expect.poll(() => chip.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    expect(sizes.length).toBe(1);
    expect(sizes[0]).toBeLessThan(400 * 1024);
    const shown = await percents();
    expect(shown.some((t) => /\d+%/.test(t))).toBe(true);
    await page.getByRole('textbox', { name: 'Message' }).fill('Lunch');
    await page.getByRole('button', { name: 'Send' }).click();
    const withPhoto = page.getByTestId('chat-message').filter({ hasText: 'Lunch' });
    await expect.poll(() => withPhoto.getAttribute('data-status'), { timeout: 10_000 }).toBe('sent');
    expect(await withPhoto.getByTestId('chat-file').getAttribute('data-type')).toMatch(/^image\//);

    const longName = 'Blood test report from the lab, November 2026 (scanned at the clinic).docx';
    await input.setInputFiles({
      name: longName,
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from('PK'),
    });
    const refused = page.getByTestId('composer-files').getByRole('alert');
    await expect.poll(() => refused.textContent(), { timeout: 5_000 }).toContain(`“${longName}” cannot be sent`);
    expect(await refused.textContent()).toContain('a photo (JPEG, PNG or WebP) or a PDF');
    expect(sizes.length).toBe(1);
    await screenshot(page, 'e2-messages-refused');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`the console inbox at ${viewport.width} px: ${viewport === PHONE ? 'one column, the list then the conversation with a way back' : 'list, conversation and client side by side'}`, async () => {
      const client = await newClient(server, { firstName: 'Nisha', lastName: `Inbox${viewport.width}` });
      const dietitian = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Rao' });
      const phone = await signedInPage(browser, server, client, { viewport: PHONE });
      await phone.page.goto('/dashboard/messages');
      await phone.page.getByRole('textbox', { name: 'Message' }).fill('Can I swap rice for millets at dinner?');
      await phone.page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'millets' }).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('sent');
      await phone.context.close();

      const desk = await signedInPage(browser, server, dietitian, { viewport });
      const { page } = desk;
      await page.goto('/admin/messages');
      const row = page.getByTestId('inbox-row').filter({ hasText: `Nisha Inbox${viewport.width}` });
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      const wide = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await wide()).toBeLessThanOrEqual(0);
      await screenshot(page, 'e2-inbox-list');
      await row.click();
      const incoming = page.getByTestId('chat-message').filter({ hasText: 'millets' });
      await expect.poll(() => incoming.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await wide()).toBeLessThanOrEqual(0);
      const composer = await page.getByTestId('composer').boundingBox();
      expect(composer && composer.y + composer.height).toBeLessThanOrEqual(viewport.height);
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);
      if (viewport === PHONE) {
        expect(await page.getByTestId('inbox-list').isVisible()).toBe(false);
        expect(await page.getByTestId('conversation-panel').isVisible()).toBe(false);
        await page.getByRole('button', { name: 'About this client' }).click();
        await expect.poll(() => page.getByTestId('conversation-panel').isVisible()).toBe(true);
        await screenshot(page, 'e2-inbox-about');
        await page.getByRole('button', { name: 'Back to the conversation' }).click();
      } else {
        expect(await page.getByTestId('inbox-list').isVisible()).toBe(true);
        expect(await page.getByTestId('conversation-panel').isVisible()).toBe(true);
      }
      await screenshot(page, 'e2-inbox-open');
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (viewport === PHONE) {
        await page.getByRole('link', { name: 'Back to conversations' }).click();
        await expect.poll(() => page.getByTestId('inbox-list').isVisible()).toBe(true);
      }
      expect(desk.errors).toEqual([]);
      await desk.context.close();
    });
  }
});
