import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { newClient } from '../helpers/fixtures.js';
import { screenshot, signedInPage } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('messages between a client and the care team', () => {
  it('a client at 375 px writes, a dietitian at 1440 px reads and answers in the inbox, and the client sees the answer and "Seen"', async () => {
    const client = await newClient(server, { firstName: 'Meera', lastName: 'Iyer' });
    const dietitian = await server.user({ role: 'admin', firstName: 'Kavya', lastName: 'Rao' });
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/messages');
    await expect.poll(() => phone.page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);

    const box = phone.page.getByRole('textbox', { name: 'Message' });
    await box.fill('नमस्ते! Can I have poha for breakfast? 🙏 See https://example.com/poha');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    const mine = phone.page.getByTestId('chat-message').filter({ hasText: 'poha for breakfast' });
    await expect.poll(() => mine.getAttribute('data-status'), { timeout: 10_000 }).toBe('sent');
    expect(await box.inputValue()).toBe('');
    const link = mine.getByRole('link', { name: 'https://example.com/poha' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // A photo goes with the next message: uploaded at once (with progress), sent with the text.
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e7a33e' } })
      .jpeg()
      .toBuffer();
    await phone.page.getByTestId('composer-file-input').setInputFiles({ name: 'lunch.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect
      .poll(() => phone.page.getByTestId('composer-files').locator('li').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('ready');
    await box.fill('My lunch today');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    const withPhoto = phone.page.getByTestId('chat-message').filter({ hasText: 'My lunch today' });
    await expect.poll(() => withPhoto.getAttribute('data-status'), { timeout: 10_000 }).toBe('sent');
    expect(await withPhoto.getByTestId('chat-file').getAttribute('data-type')).toBe('image/jpeg');
    await expect.poll(() => withPhoto.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(phone.page, 'messages-client-sent');

    const desk = await signedInPage(browser, server, dietitian, { viewport: DESKTOP });
    await desk.page.goto('/admin/messages');
    const row = desk.page.getByTestId('inbox-row').filter({ hasText: 'Meera Iyer' });
    await expect.poll(() => row.getAttribute('data-unread'), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => desk.page.getByRole('link', { name: /Messages, 2 new/ }).count()).toBe(1);
    await row.click();
    const incoming = desk.page.getByTestId('chat-message').filter({ hasText: 'poha for breakfast' });
    await expect.poll(() => incoming.getAttribute('data-own'), { timeout: 10_000 }).toBe('false');
    await expect.poll(() => desk.page.getByTestId('conversation-panel').textContent()).toContain('Meera Iyer');
    const lunch = desk.page.getByTestId('chat-message').filter({ hasText: 'My lunch today' });
    await expect.poll(() => lunch.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await desk.page.getByRole('textbox', { name: 'Message' }).fill('Yes, with vegetables and peanuts. Keep it to one bowl.');
    await desk.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const answer = desk.page.getByTestId('chat-message').filter({ hasText: 'one bowl' });
    // The client's chat is open and live: the answer may be read (and "Seen") at once.
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 10_000 }).toMatch(/^(sent|seen)$/);
    await screenshot(desk.page, 'messages-console');

    // The client reads the answer; the dietitian's message then shows "Seen" once the console loads again.
    await phone.page.reload();
    const reply = phone.page.getByTestId('chat-message').filter({ hasText: 'one bowl' });
    await expect.poll(() => reply.getAttribute('data-own'), { timeout: 15_000 }).toBe('false');
    await expect
      .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'My lunch today' }).getAttribute('data-status'))
      .toBe('seen');
    await screenshot(phone.page, 'messages-client-answered');
    await desk.page.reload();
    await expect
      .poll(() => desk.page.getByTestId('chat-message').filter({ hasText: 'one bowl' }).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('seen');
    // Each screen at the other width too (a client on a desktop, a dietitian on a phone), never wider than the window.
    await phone.page.setViewportSize(DESKTOP);
    await desk.page.setViewportSize(PHONE);
    await Promise.all([phone.page.reload(), desk.page.reload()]);
    for (const page of [phone.page, desk.page]) {
      await expect.poll(() => page.getByTestId('chat-message').filter({ hasText: 'one bowl' }).count(), { timeout: 15_000 }).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    }
    await screenshot(phone.page, 'messages-client-answered');
    await screenshot(desk.page, 'messages-console');

    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
    await phone.context.close();
    await desk.context.close();
  });

  it('is live: the dietitian sees the client’s message, typing and the unread badge without reloading, and the client sees "Seen" and the answer', async () => {
    const client = await newClient(server, { firstName: 'Meera', lastName: 'Live' });
    const dietitian = await server.user({ role: 'admin', firstName: 'Anjali', lastName: 'Shah' });
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/messages');
    await expect.poll(() => phone.page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);
    const desk = await signedInPage(browser, server, dietitian, { viewport: DESKTOP });
    await desk.page.goto('/admin/messages');
    const row = desk.page.getByTestId('inbox-row').filter({ hasText: 'Meera Live' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    // The console's badge counts every conversation's unread messages (earlier tests' too).
    const deskUnread = async () => {
      const badge = desk.page.getByTestId('badge-messages');
      return (await badge.count()) ? Number(await badge.first().textContent()) : 0;
    };
    const unreadBefore = await deskUnread();

    // The client writes: the console's inbox row and badge count it, live.
    const box = phone.page.getByRole('textbox', { name: 'Message' });
    await box.fill('First live message');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'First live message' }).getAttribute('data-status'), {
        timeout: 10_000,
      })
      .toBe('sent');
    await expect.poll(() => row.getAttribute('data-unread'), { timeout: 5_000 }).toBe('1');
    await expect.poll(deskUnread, { timeout: 5_000 }).toBe(unreadBefore + 1);

    // The dietitian opens it: the client's message turns "Seen" without a reload, and the badge clears.
    await row.click();
    await expect
      .poll(() => desk.page.getByTestId('chat-message').filter({ hasText: 'First live message' }).count(), { timeout: 10_000 })
      .toBe(1);
    await expect
      .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'First live message' }).getAttribute('data-status'), {
        timeout: 5_000,
      })
      .toBe('seen');
    await expect.poll(deskUnread, { timeout: 5_000 }).toBe(unreadBefore);

    // The client keeps typing (a notice goes out at most every 3 s): "Meera is typing…" shows in the console, and goes away by itself.
    const activity = desk.page.getByTestId('chat-activity');
    let typed = 'S';
    await expect
      .poll(
        async () => {
          typed += 'e';
          await box.fill(typed);
          return activity.textContent();
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe('Meera is typing…');
    const shownAt = Date.now();
    await expect.poll(() => activity.textContent(), { timeout: 10_000 }).toBe('');
    expect(Date.now() - shownAt).toBeLessThan(8_000);

    // The client's next message reaches the open conversation within 2 s of being stored.
    await box.fill('Second live message');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'Second live message' }).getAttribute('data-status'), {
        timeout: 10_000,
      })
      .toMatch(/^(sent|seen)$/);
    await expect
      .poll(() => desk.page.getByTestId('chat-message').filter({ hasText: 'Second live message' }).count(), { timeout: 2_000 })
      .toBe(1);

    // The dietitian answers: the client sees it live; away from the chat, the drawer's badge counts the next one.
    await desk.page.getByRole('textbox', { name: 'Message' }).fill('Got both, thank you.');
    await desk.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect
      .poll(() => phone.page.getByTestId('chat-message').filter({ hasText: 'Got both' }).getAttribute('data-own'), { timeout: 5_000 })
      .toBe('false');
    await phone.page.goto('/dashboard/check-bmi');
    // The drawer is closed on a phone: the link's name carries the count.
    const messagesLink = phone.page.getByTestId('dashboard-drawer').locator('a[href$="/messages"]');
    await expect.poll(() => messagesLink.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Messages');
    await desk.page.getByRole('textbox', { name: 'Message' }).fill('One more thing: drink water.');
    await desk.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect.poll(() => messagesLink.getAttribute('aria-label'), { timeout: 5_000 }).toBe('Messages, 1 new');

    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
    await phone.context.close();
    await desk.context.close();
  });

  it('a message written while the server cannot be reached is "waiting to send", survives a reload, and is sent once when the connection returns', async () => {
    const client = await newClient(server);
    const phone = await signedInPage(browser, server, client, { viewport: PHONE });
    await phone.page.goto('/dashboard/messages');
    await expect.poll(() => phone.page.getByTestId('chat-empty').isVisible(), { timeout: 15_000 }).toBe(true);

    await phone.page.route('**/trpc/messages.send**', (route) => route.abort('internetdisconnected'));
    await phone.page.getByRole('textbox', { name: 'Message' }).fill('Written on the train');
    await phone.page.getByRole('button', { name: 'Send' }).click();
    const pending = phone.page.getByTestId('chat-pending').filter({ hasText: 'Written on the train' });
    // Unreachable is not a refusal: the message waits in the phone's queue and goes by itself; "Not sent — Retry" is for refusals.
    await expect.poll(() => pending.getAttribute('data-status'), { timeout: 10_000 }).toBe('waiting');
    expect(await pending.textContent()).toContain('Waiting to send');
    phone.errors.length = 0; // the aborted request is logged by the browser

    await phone.page.unroute('**/trpc/messages.send**');
    await phone.page.reload();
    const sent = phone.page.getByTestId('chat-message').filter({ hasText: 'Written on the train' });
    await expect.poll(() => sent.count(), { timeout: 15_000 }).toBe(1);
    expect(await phone.page.getByTestId('chat-pending').count()).toBe(0);
    const stored = await server.deps.db.selectFrom('messages').select('id').where('text', '=', 'Written on the train').execute();
    expect(stored).toHaveLength(1);
    await phone.context.close();
  });
});
