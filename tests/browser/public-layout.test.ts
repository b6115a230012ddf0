import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot } from '../helpers/pages.js';
import { scrollThrough } from '../helpers/public-site.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/**
 * Layout and details of the public site, measured the way a person
 * sees the page: where the visible text and boxes of each band start.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

type Band = { name: string; left: number; right: number };

/**
 * For the header, every band of <main> and the footer: the left and right
 * edges of what is painted in it (text, images, controls and boxes with a
 * background, border or shadow), leaving out full-bleed backdrops.
 */
function paintedBands(page: Page): Promise<Band[]> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const painted = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
      if (['IMG', 'SVG', 'svg', 'INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'VIDEO'].includes(el.tagName)) return true;
      const bg = style.backgroundColor !== 'rgba(0, 0, 0, 0)' || style.backgroundImage !== 'none';
      const border = Number.parseFloat(style.borderLeftWidth) > 0 || style.boxShadow !== 'none';
      return bg || border;
    };
    const edges = (root: Element) => {
      let left = Number.POSITIVE_INFINITY;
      let right = Number.NEGATIVE_INFINITY;
      const take = (r: DOMRect) => {
        // Skip sr-only text and full-bleed backdrops (section backgrounds, hero images and overlays).
        if (r.width <= 1 || r.height <= 1 || r.width >= viewport - 1) return;
        left = Math.min(left, r.left);
        right = Math.max(right, r.right);
      };
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Text for screen readers only is laid out but clipped away.
        if ((node.nodeType === Node.TEXT_NODE ? node.parentElement : (node as Element))?.closest('.sr-only')) continue;
        if (node.nodeType === Node.TEXT_NODE) {
          if (!node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) take(r);
        } else if (painted(node as Element)) {
          take((node as Element).getBoundingClientRect());
        }
      }
      return { left: Math.round(left), right: Math.round(right) };
    };
    const bands: Element[] = [
      document.querySelector('header[data-testid="top-bar"]'),
      ...Array.from(document.querySelectorAll('main > *')),
      document.querySelector('footer'),
    ].filter((el): el is Element => el !== null && el.getBoundingClientRect().height > 0);
    return bands.map((el) => ({
      name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('aria-labelledby') ? `[${el.getAttribute('aria-labelledby')}]` : ''}`,
      ...edges(el),
    }));
  });
}

describe('public pages share one grid', () => {
  it('starts the header, every band and the footer at the same x at 1440 px (or centres it)', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    for (const path of ['/', '/about-us', '/contact-us', '/consult', '/faq', '/pricing-plans']) {
      await page.goto(path);
      await scrollThrough(page);
      const bands = await paintedBands(page);
      const gridLeft = bands[0]!.left;
      const gridRight = bands[0]!.right;
      // The header starts the grid: (1440 - 1152) / 2 with 72rem of content (a pixel either way for glyph edges).
      const near = (a: number, b: number) => Math.abs(a - b) <= 1;
      expect(near(gridLeft, 144), `${path} header starts at ${gridLeft}`).toBe(true);
      expect(near(gridRight, 1296), `${path} header ends at ${gridRight}`).toBe(true);
      for (const band of bands) {
        const centred = Math.abs(band.left - gridLeft - (gridRight - band.right)) <= 2;
        expect(near(band.left, gridLeft) || centred, `${path} ${band.name} starts at ${band.left}, not ${gridLeft}`).toBe(true);
        expect(band.left, `${path} ${band.name} pokes out of the grid`).toBeGreaterThanOrEqual(gridLeft - 1);
        expect(band.right, `${path} ${band.name} pokes out of the grid`).toBeLessThanOrEqual(gridRight + 1);
      }
      // The page's first band (hero or title band) and the footer are left-aligned with the header, not centred.
      expect(near(bands[1]!.left, gridLeft), `${path} ${bands[1]!.name} starts at ${bands[1]!.left}`).toBe(true);
      expect(near(bands.at(-1)!.left, gridLeft), `${path} footer starts at ${bands.at(-1)!.left}`).toBe(true);
      await screenshot(page, `grid${path.replaceAll('/', '-') || '-home'}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['375 px', PHONE],
    ['1440 px', DESKTOP],
  ] as const) {
    it(`starts the Contact Us form card where its title starts (${label})`, async () => {
      const { context, errors } = await openContext(browser, server, { viewport });
      const page = await context.newPage();
      await page.goto('/contact-us');
      const title = await page.getByRole('heading', { level: 1, name: 'Contact Us' }).boundingBox();
      // The card is the white box around "Send us a message" and its form.
      const card = await page
        .getByRole('heading', { name: 'Send us a message' })
        .locator('xpath=..')
        .evaluate((el) => el.getBoundingClientRect().left);
      expect(Math.round(card)).toBe(Math.round(title!.x));
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('small details', () => {
  it('highlights Book A Consultation on /consult with or without ?book', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    for (const path of ['/consult', '/consult?book=true']) {
      await page.goto(path);
      if (path.includes('book')) await page.keyboard.press('Escape');
      const nav = page.getByRole('navigation', { name: 'Primary' });
      await expect
        .poll(() => nav.getByRole('link', { name: 'Book A Consultation' }).getAttribute('aria-current'), { message: path })
        .toBe('page');
      expect(await nav.locator('[aria-current="page"]').count(), path).toBe(1);
      const colour = await nav.getByRole('link', { name: 'Book A Consultation' }).evaluate((a) => getComputedStyle(a).color);
      const home = await nav.getByRole('link', { name: 'Home' }).evaluate((a) => getComputedStyle(a).color);
      expect(colour, 'the current link looks different').not.toBe(home);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows Sunday's support hours in the same type as the weekdays'", async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/contact-us');
    const hours = page.getByTestId('support-hours');
    expect((await hours.textContent())?.replace(/\s+/g, '')).toBe('Mon-Sat09:00AM-8:00PMSun10:00AM-4:00PM');
    const look = (text: string) =>
      hours.getByText(text, { exact: true }).evaluate((el) => {
        const s = getComputedStyle(el);
        return `${s.fontSize} ${s.fontWeight} ${s.color}`;
      });
    expect(await look('Sun')).toBe(await look('Mon-Sat'));
    expect(await look('10:00AM-4:00PM')).toBe(await look('09:00AM-8:00PM'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
