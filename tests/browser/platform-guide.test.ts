import { existsSync, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GUIDE_STEPS, guideImage } from '../../src/features/auth/guide-steps.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { newClient } from '../helpers/fixtures.js';
import { screenshot, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/**
 * The Platform Guide is a step-by-step page with screenshots of the
 * real app (scripts/guide-screenshots.ts), not a placeholder promising a video.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('platform guide', () => {
  it('has a committed, compressed screenshot for every step on both devices', () => {
    for (const step of GUIDE_STEPS) {
      for (const device of ['desktop', 'phone'] as const) {
        const file = `public${guideImage(step, device)}`;
        expect(existsSync(file), `${file} (run npm run guide:screenshots)`).toBe(true);
        expect(statSync(file).size, `${file} is small`).toBeLessThan(150 * 1024);
      }
    }
  });

  for (const [label, viewport, device] of [
    ['375 px', PHONE, 'phone'],
    ['1440 px', DESKTOP, 'desktop'],
  ] as const) {
    it(`shows the steps with their screenshots, and no promise of a video (${label})`, async () => {
      const client = await newClient(server);
      const { context, page, errors } = await signedInPage(browser, server, client, { viewport });
      await page.goto('/platform-guide');
      await expect.poll(() => page.getByRole('heading', { name: 'Platform Guide', level: 1 }).isVisible()).toBe(true);

      const steps = page.getByTestId('guide-steps').getByRole('listitem');
      expect(await steps.count()).toBe(GUIDE_STEPS.length);
      for (const [i, step] of GUIDE_STEPS.entries()) {
        const item = steps.nth(i);
        expect(await item.getByRole('heading', { level: 2 }).textContent()).toBe(`Step ${i + 1}: ${step.title}`);
        expect(await item.textContent()).toContain(step.text);
        // Scrolled to, as a reader would: the lazy picture loads, for this device, at its size.
        const image = item.getByRole('img', { name: step.alt });
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: step.id })
          .toBe(true);
        const shown = await image.evaluate((img: HTMLImageElement) => ({
          src: new URL(img.currentSrc).pathname,
          width: img.getBoundingClientRect().width,
          ratio: img.naturalWidth / img.naturalHeight,
        }));
        expect(shown.src, step.id).toBe(guideImage(step, device));
        expect(shown.width, `${step.id} fits the screen`).toBeLessThanOrEqual(viewport.width);
        expect(shown.ratio, `${step.id} keeps its shape`).toBeCloseTo(device === 'phone' ? 375 / 667 : 1024 / 640, 1);
      }

      // No media address in tests: no player, no "not available" note, no dead play button.
      expect(await page.getByTestId('guide-video').count()).toBe(0);
      expect(await page.locator('main').textContent()).not.toMatch(/not available|could not be loaded/i);
      expect(await page.locator('main').getByRole('button', { name: /play/i }).count()).toBe(0);
      await screenshot(page, `platform-guide-${viewport.width}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('home page without configured videos', () => {
  it('shows designed stills for the hero and stories, with no promise of a video', async () => {
    const { context, page, errors } = await signedInPage(browser, server, null, { viewport: DESKTOP });
    await page.goto('/');
    expect(await page.locator('main video').count()).toBe(0);
    expect(
      await page
        .locator('main')
        .getByRole('button', { name: /play|video/i })
        .count(),
    ).toBe(0);
    expect(await page.locator('main').textContent()).not.toMatch(/not available|coming soon|watch the video/i);
    const stills = page.getByTestId('stories').getByRole('img');
    await stills.first().scrollIntoViewIfNeeded();
    await expect.poll(() => stills.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
