import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { adminApi, newClient } from '../helpers/fixtures.js';
import { cssOf, screenshot, signedInPage } from '../helpers/pages.js';

let server: TestServer;
let browser: Browser;
let admin: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
  admin = await adminApi(server);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const post = (page: Page, text: string) => page.getByTestId('feed-post').filter({ hasText: text });
const waitLive = (page: Page) =>
  expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('live');

async function clearFeed() {
  await server.deps.db.deleteFrom('feed_likes').execute();
  await server.deps.db.deleteFrom('feed_posts').execute();
}

describe('feeds', () => {
  it("says 'No updated feed' when there are no posts", async () => {
    await clearFeed();
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByTestId('feed-empty').textContent()).toContain('No updated feed');
    await screenshot(page, 'feeds-empty');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows each post with the admin name and label, its age, text with line breaks, likes and likers', async () => {
    await clearFeed();
    const old = await admin.admin.feed.create.mutate({ desc: 'Posted three days ago' });
    const hours = await admin.admin.feed.create.mutate({ desc: 'Posted two hours ago' });
    await admin.admin.feed.create.mutate({ desc: 'Good morning!\nStart the day with warm water and lemon.' });
    const ago = (ms: number) => new Date(Date.now() - ms);
    await sql`update feed_posts set created_at = ${ago(3 * 86_400_000)} where id = ${old.id}`.execute(server.deps.db);
    await sql`update feed_posts set created_at = ${ago(2 * 3_600_000 + 60_000)} where id = ${hours.id}`.execute(server.deps.db);

    const liker = await newClient(server, { firstName: 'Priya', lastName: 'Nair' });
    await server.deps.db.insertInto('feed_likes').values({ post_id: hours.id, user_id: liker.id }).execute();

    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: DESKTOP });
    await page.goto('/dashboard/feeds');
    const fresh = post(page, 'Good morning!');
    await expect.poll(() => fresh.count()).toBe(1);
    expect(await fresh.getByText('Admin', { exact: true }).isVisible()).toBe(true);
    expect(await fresh.getByTestId('post-time').textContent()).toBe('just now');
    // innerText on purpose: the line break must be rendered, not only present in the text.
    // biome-ignore lint/performance/useDomNodeTextContent: see above
    expect(await fresh.getByTestId('post-desc').innerText()).toBe('Good morning!\nStart the day with warm water and lemon.');
    expect(await post(page, 'Posted two hours ago').getByTestId('post-time').textContent()).toBe('2h');
    const oldText = await post(page, 'Posted three days ago').getByTestId('post-time').textContent();
    expect(oldText).toMatch(/\d{4}/);
    // Newest first.
    expect(await page.getByTestId('post-desc').allTextContents()).toEqual([
      'Good morning!\nStart the day with warm water and lemon.',
      'Posted two hours ago',
      'Posted three days ago',
    ]);

    // Like: own like is blue, the count goes up; the likers dialog lists first and last names.
    const toggle = fresh.getByTestId('like-toggle');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => fresh.getByTestId('like-count').textContent()).toBe('1');
    const blue = await cssOf(page, 'text-blue-700', 'color');
    await expect.poll(() => toggle.evaluate((el) => getComputedStyle(el).color)).toBe(blue);
    expect(await toggle.textContent()).toBe('Liked');
    await screenshot(page, 'feeds');

    await post(page, 'Posted two hours ago').getByTestId('like-count').click();
    const dialog = page.getByRole('dialog', { name: 'Liked by' });
    await expect.poll(() => dialog.getByTestId('likers-list').textContent()).toBe('Priya Nair');
    await screenshot(page, 'feeds-likers');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect.poll(() => dialog.count()).toBe(0);

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => fresh.getByTestId('like-count').textContent()).toBe('0');
    // The button answers at once; the server's answer follows.
    await expect.poll(() => server.deps.db.selectFrom('feed_likes').selectAll().where('user_id', '=', client.id).execute()).toEqual([]);
    await expect.poll(() => toggle.isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages through a long feed as the reader scrolls', async () => {
    await clearFeed();
    for (let i = 1; i <= 13; i++) await admin.admin.feed.create.mutate({ desc: `Tip number ${i}` });
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    await expect.poll(() => page.getByTestId('feed-post').count()).toBe(10);
    await page.getByTestId('feed-post').last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 5000);
    await expect.poll(() => page.getByTestId('feed-post').count(), { timeout: 10_000 }).toBe(13);
    expect(await page.getByTestId('post-desc').last().textContent()).toBe('Tip number 1');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * How the first `emoji` in `el` renders, next to a character no font has (U+10FFFD, drawn as the
 * missing-glyph box, "tofu") in the same element and font: their widths, and whether a Noto Emoji
 * face has been loaded.
 */
function emojiRendering(el: Element, emoji: string) {
  const width = (node: Text, start: number, length: number) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + length);
    return range.getBoundingClientRect().width;
  };
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node: Text | null = null;
  while (walker.nextNode()) {
    if ((walker.currentNode as Text).data.includes(emoji)) {
      node = walker.currentNode as Text;
      break;
    }
  }
  if (!node) throw new Error(`no ${emoji} in the element`);
  const probe = document.createElement('span');
  probe.textContent = '\u{10FFFD}';
  el.append(probe);
  const tofu = width(probe.firstChild as Text, 0, 2);
  probe.remove();
  return {
    emoji: width(node, node.data.indexOf(emoji), emoji.length),
    tofu,
    notoEmojiLoaded: [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Noto Emoji' && f.status === 'loaded'),
  };
}

describe('emoji in posts', () => {
  it('render as emoji, not as missing-glyph boxes, in the dashboard feed and the console, and public pages never load the font', async () => {
    await clearFeed();
    await admin.admin.feed.create.mutate({ desc: 'Drink a glass of water before every meal \u{1F4A7}' });
    const client = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, client, { viewport: PHONE });
    await page.goto('/dashboard/feeds');
    const text = post(page, 'Drink a glass').getByTestId('post-desc');
    await expect.poll(() => text.count()).toBe(1);
    await page.evaluate(() => document.fonts.ready);
    // The machines this runs on have no emoji font: without the bundled one the emoji is a box as wide as the tofu.
    await expect.poll(() => text.evaluate(emojiRendering, '\u{1F4A7}'), { timeout: 10_000 }).toMatchObject({ notoEmojiLoaded: true });
    const shown = await text.evaluate(emojiRendering, '\u{1F4A7}');
    expect(shown.emoji).toBeGreaterThan(shown.tofu + 2);
    await screenshot(page, 'feeds-emoji');

    const dietitian = await server.user({ role: 'admin' });
    const {
      context: adminContext,
      page: adminPage,
      errors: adminErrors,
    } = await signedInPage(browser, server, dietitian, { viewport: DESKTOP });
    await adminPage.goto('/admin/feed');
    const adminText = adminPage.getByTestId('admin-post').filter({ hasText: 'Drink a glass' });
    await expect.poll(() => adminText.count()).toBe(1);
    await expect.poll(() => adminText.evaluate(emojiRendering, '\u{1F4A7}'), { timeout: 10_000 }).toMatchObject({ notoEmojiLoaded: true });
    const inConsole = await adminText.evaluate(emojiRendering, '\u{1F4A7}');
    expect(inConsole.emoji).toBeGreaterThan(inConsole.tofu + 2);

    // The public site's pages do not even declare the face (their budgets stay as they were).
    const fontRequests: string[] = [];
    adminPage.on('request', (r) => {
      if (r.url().includes('noto-emoji')) fontRequests.push(r.url());
    });
    await adminPage.goto('/');
    await adminPage.evaluate(() => document.fonts.ready);
    expect(await adminPage.evaluate(() => [...document.fonts].some((f) => f.family.includes('Noto Emoji')))).toBe(false);
    expect(fontRequests).toEqual([]);
    expect(errors).toEqual([]);
    expect(adminErrors).toEqual([]);
    await adminContext.close();
    await context.close();
  });
});

describe('live feed', () => {
  it('shows another client’s like, and new, edited and removed posts, in every open dashboard without reloading', async () => {
    await clearFeed();
    const first = await admin.admin.feed.create.mutate({ desc: 'Hydration check: have you had water in the last hour?' });
    const a = await newClient(server, { firstName: 'Anil', lastName: 'Kumar' });
    const b = await newClient(server, { firstName: 'Bina', lastName: 'Shah' });
    const pa = await signedInPage(browser, server, a, { viewport: DESKTOP });
    const pb = await signedInPage(browser, server, b, { viewport: PHONE });
    await Promise.all([pa.page.goto('/dashboard/feeds'), pb.page.goto('/dashboard/feeds')]);
    await Promise.all([waitLive(pa.page), waitLive(pb.page)]);
    await expect.poll(() => post(pb.page, 'Hydration check').getByTestId('like-count').textContent()).toBe('0');

    // B records every change of its count; both pages read the same machine clock.
    await pb.page.evaluate(() => {
      const count = document.querySelector('[data-testid="like-count"]')!;
      const seen: { text: string; at: number }[] = [];
      (window as any).__countChanges = seen;
      new MutationObserver(() => seen.push({ text: count.textContent ?? '', at: Date.now() })).observe(count, {
        subtree: true,
        characterData: true,
        childList: true,
      });
    });
    // A likes, unlikes and likes again (5 toggles); each time B must follow, and we time it.
    const toggleA = post(pa.page, 'Hydration check').getByTestId('like-toggle');
    const latencies: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const expected = i % 2 === 1 ? '1' : '0';
      await expect.poll(() => toggleA.isDisabled()).toBe(false);
      const clickedAt = await pa.page.evaluate(() => Date.now());
      await toggleA.click();
      await expect.poll(() => post(pb.page, 'Hydration check').getByTestId('like-count').textContent(), { timeout: 5000 }).toBe(expected);
      const seenAt = await pb.page.evaluate(
        ([after, text]) =>
          ((window as any).__countChanges as { text: string; at: number }[]).find((c) => c.at >= after && c.text === text)?.at,
        [clickedAt, expected] as const,
      );
      latencies.push(seenAt! - clickedAt);
    }
    const sorted = [...latencies].sort((x, y) => x - y);
    console.info(`like → other browser: median ${sorted[2]} ms, max ${sorted[4]} ms (${latencies.join(', ')} ms)`);
    expect(sorted[4]).toBeLessThan(1000);
    // B did not like it: only A's button is pressed.
    expect(await post(pb.page, 'Hydration check').getByTestId('like-toggle').getAttribute('aria-pressed')).toBe('false');
    expect(await post(pa.page, 'Hydration check').getByTestId('like-toggle').getAttribute('aria-pressed')).toBe('true');

    // An admin posts through the API: it appears at the top of both feeds.
    await admin.admin.feed.create.mutate({ desc: 'Live tip: add a handful of sprouts to your lunch.' });
    for (const { page } of [pa, pb]) {
      await expect
        .poll(() => page.getByTestId('post-desc').first().textContent(), { timeout: 5000 })
        .toBe('Live tip: add a handful of sprouts to your lunch.');
    }
    await admin.admin.feed.update.mutate({ id: first.id, desc: 'Hydration check (edited): water, not juice.' });
    for (const { page } of [pa, pb]) {
      await expect.poll(() => post(page, 'Hydration check (edited)').count(), { timeout: 5000 }).toBe(1);
    }
    // The edit kept A's like and the count.
    expect(await post(pa.page, 'Hydration check (edited)').getByTestId('like-toggle').getAttribute('aria-pressed')).toBe('true');
    expect(await post(pb.page, 'Hydration check (edited)').getByTestId('like-count').textContent()).toBe('1');
    await admin.admin.feed.remove.mutate({ id: first.id });
    for (const { page } of [pa, pb]) {
      await expect.poll(() => post(page, 'Hydration check').count(), { timeout: 5000 }).toBe(0);
    }
    await screenshot(pb.page, 'feeds-live');
    expect(pa.errors).toEqual([]);
    expect(pb.errors).toEqual([]);
    await pa.context.close();
    await pb.context.close();
  });

  it('shows a like made in another tab of the same client as the viewer’s own', async () => {
    await clearFeed();
    await admin.admin.feed.create.mutate({ desc: 'Two tabs, one person' });
    const a = await newClient(server);
    const { context, page, errors } = await signedInPage(browser, server, a);
    const other = await context.newPage();
    await Promise.all([page.goto('/dashboard/feeds'), other.goto('/dashboard/feeds')]);
    await Promise.all([waitLive(page), waitLive(other)]);
    await post(other, 'Two tabs').getByTestId('like-toggle').click();
    await expect.poll(() => post(page, 'Two tabs').getByTestId('like-toggle').getAttribute('aria-pressed'), { timeout: 5000 }).toBe('true');
    expect(await post(page, 'Two tabs').getByTestId('like-count').textContent()).toBe('1');
    expect(errors).toEqual([]);
    await context.close();
  });
});
