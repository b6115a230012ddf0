import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import {
  chatText,
  DOCUMENT_404_ERROR,
  expectNewTab,
  isNotFoundPath,
  PUBLIC_ROUTES,
  scrollThrough,
  seriousAxeViolations,
} from '../helpers/public-site.js';

/**
 * Every public route at phone and desktop width: its own title and
 * description, one <h1>, landmarks, images with dimensions (lazy below the
 * fold), no sideways scrolling, no console errors, and no serious or
 * critical axe-core violation. Also the top bar, the footer and the 404.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

for (const [label, viewport] of [
  ['375 px', PHONE],
  ['1440 px', DESKTOP],
] as const) {
  describe(`every public route at ${label}`, () => {
    it('has its own title, meta description, one h1, landmarks, sized images and no axe violations', async () => {
      const { context, errors } = await openContext(browser, server, { viewport });
      const page = await context.newPage();
      const titles = new Set<string>();
      const descriptions = new Set<string>();
      for (const route of PUBLIC_ROUTES) {
        const response = await page.goto(route.path);
        expect(response?.status(), `${route.path} HTTP status`).toBe(isNotFoundPath(route.path) ? 404 : 200);
        await expect.poll(() => page.locator('h1').textContent()).toBe(route.h1);
        expect(await page.locator('h1').count(), `${route.path} has one h1`).toBe(1);
        titles.add(await page.title());
        descriptions.add((await page.locator('meta[name="description"]').getAttribute('content')) ?? '');

        expect(await page.getByRole('banner').count(), `${route.path} banner`).toBe(1);
        expect(await page.getByRole('main').count(), `${route.path} main`).toBe(1);
        expect(await page.getByRole('contentinfo').count(), `${route.path} footer`).toBe(1);

        // Images: width and height always; lazy when they start below the fold.
        const images = await page.locator('main img').evaluateAll((imgs) =>
          imgs.map((img) => ({
            src: img.getAttribute('src'),
            width: img.getAttribute('width'),
            height: img.getAttribute('height'),
            loading: img.getAttribute('loading'),
            top: img.getBoundingClientRect().top + window.scrollY,
          })),
        );
        for (const img of images) {
          expect(img.width && img.height, `${img.src} has width and height`).toBeTruthy();
          if (img.top > viewport.height) expect(img.loading, `${img.src} is below the fold`).toBe('lazy');
        }

        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${route.path} scrolls sideways`).toBeLessThanOrEqual(
          viewport.width,
        );

        await scrollThrough(page);
        expect(await seriousAxeViolations(page), `axe on ${route.path}`).toEqual([]);
        await screenshot(page, route.path === '/' ? 'home' : route.path.slice(1));
      }
      expect(titles.size, 'every page has its own title').toBe(PUBLIC_ROUTES.length);
      expect(descriptions.size, 'every page has its own description').toBe(PUBLIC_ROUTES.length);
      expect(errors).toEqual([DOCUMENT_404_ERROR]);
      await context.close();
    });
  });
}

it('shows a visible focus ring on keyboard focus', async () => {
  const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto('/faq');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Frequently Asked Questions');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect.poll(() => skip.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await skip.isVisible()).toBe(true);
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return { width: Number.parseFloat(style.outlineWidth), style: style.outlineStyle };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThanOrEqual(2);
  expect(errors).toEqual([]);
  await context.close();
});

/** Perceived lightness 0-100 of an opaque CSS colour as Chromium reports it (lab(), oklch() or rgb()). */
function lightness(color: string): number {
  const numbers = color.match(/[\d.]+/g)?.map(Number) ?? [];
  if (color.startsWith('lab(')) return numbers[0] ?? 100;
  if (color.startsWith('oklch(')) return (numbers[0] ?? 1) * (color.includes('%') ? 1 : 100);
  if (color.startsWith('rgb(')) return ((numbers[0]! * 0.2126 + numbers[1]! * 0.7152 + numbers[2]! * 0.0722) / 255) * 100;
  return 100; // transparent or anything unexpected counts as light
}

describe('top bar', () => {
  it('is transparent over the home hero, turns dark after scrolling, and is dark on other pages', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/');
    const bar = page.getByTestId('top-bar');
    await expect.poll(() => bar.getAttribute('data-transparent')).toBe('true');
    expect(await bar.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
    await expect.poll(() => bar.getAttribute('data-transparent')).toBe('false');

    for (const path of ['/about-us', '/pricing-plans', '/faq']) {
      await page.goto(path);
      await expect.poll(() => bar.getAttribute('data-transparent')).toBe('false');
      const background = await bar.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(lightness(background), `${path} bar is dark: ${background}`).toBeLessThan(20);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('links Home, About us, Book A Consultation and Pricing Plans on desktop, and hides them on phones', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/about-us');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Nutrition care that fits real lives');
    const nav = page.getByRole('navigation', { name: 'Primary' });
    const links = nav.getByRole('link');
    expect(await links.allTextContents()).toEqual(['Home', 'About us', 'Book A Consultation', 'Pricing Plans']);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/',
      '/about-us',
      '/consult?book=true',
      '/pricing-plans',
    ]);
    expect(await nav.getByRole('link', { name: 'About us' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Pricing Plans' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pricing-plans');

    await page.setViewportSize(PHONE);
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no top bar or footer of the public site on dashboard paths', async () => {
    const user = await server.user();
    const { context } = await openContext(browser, server, { viewport: DESKTOP, as: user });
    const page = await context.newPage();
    await page.goto('/dashboard/feeds');
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('top-bar').count()).toBe(0);
    expect(await page.getByTestId('site-footer').count()).toBe(0);
    await context.close();
  });
});

/** Visible link texts, without the screen-reader-only '(opens in a new tab)'. */
const linkNames = (scope: Locator) =>
  scope.getByRole('link').evaluateAll((links) =>
    links.map((a) =>
      [...a.childNodes]
        .filter((n) => !(n instanceof HTMLElement && n.classList.contains('sr-only')))
        .map((n) => n.textContent)
        .join('')
        .trim(),
    ),
  );

describe('footer', () => {
  it('has the Company and Explore/help links, social links in new tabs and the 2025 copyright', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/faq');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Frequently Asked Questions');
    const footer = page.getByTestId('site-footer');
    const company = footer.getByRole('navigation', { name: 'Company' });
    expect(await company.getByRole('link').allTextContents()).toEqual(['About us', 'Contact Us']);
    const explore = footer.getByRole('navigation', { name: 'Explore & help' });
    expect(await linkNames(explore)).toEqual(['Recipes', 'Pricing', 'FAQ']);
    await expectNewTab(explore.getByRole('link', { name: /Recipes/ }));
    expect(await explore.getByRole('link', { name: /Recipes/ }).getAttribute('href')).toMatch(/^https:\/\/www\.youtube\.com\//);

    for (const network of ['Facebook', 'Instagram', 'WhatsApp', 'LinkedIn', 'YouTube']) {
      const link = footer.getByRole('link', { name: new RegExp(`^${network}`) });
      expect(await link.count(), network).toBe(1);
      await expectNewTab(link);
    }
    expect(chatText(await footer.getByRole('link', { name: /^WhatsApp/ }).getAttribute('href'))).toContain(
      'question about your diet plans',
    );
    expect(await footer.textContent()).toContain('© 2025 Poshan');
    // No Guide for visitors.
    expect(await footer.getByRole('link', { name: 'Guide' }).count()).toBe(0);

    await company.getByRole('link', { name: 'Contact Us' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/contact-us');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds Guide for a signed-in client', async () => {
    const user = await server.user();
    const { context } = await openContext(browser, server, { viewport: DESKTOP, as: user });
    const page = await context.newPage();
    await page.goto('/faq');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Frequently Asked Questions');
    const explore = page.getByTestId('site-footer').getByRole('navigation', { name: 'Explore & help' });
    expect(await linkNames(explore)).toEqual(['Guide', 'Recipes', 'Pricing', 'FAQ']);
    expect(await explore.getByRole('link', { name: 'Guide' }).getAttribute('href')).toBe('/platform-guide');
    await context.close();
  });
});

describe('about page', () => {
  it('has the about, services and expertise anchors, and Consult Now opens the booking modal', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/about-us');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Nutrition care that fits real lives');
    for (const id of ['about', 'services', 'expertise']) expect(await page.locator(`section#${id}`).count(), id).toBe(1);

    // A deep link to an anchor scrolls to it.
    await page.goto('/about-us#expertise');
    await expect.poll(() => page.locator('#expertise').evaluate((el) => Math.abs(el.getBoundingClientRect().top) < 120)).toBe(true);

    await page.getByRole('link', { name: 'Consult Now' }).click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/consult?book=true');
    await expect.poll(() => page.getByRole('dialog', { name: 'Schedule Your Consultation' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('scrolls smoothly to the top when opened from the bottom of another page', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/pricing-plans');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Pricing Plans');
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByTestId('site-footer').getByRole('link', { name: 'About us' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5000 }).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

it('shows the 404 page with Go Back Home for any unknown path', async () => {
  const { context, errors } = await openContext(browser, server, { viewport: PHONE });
  const page = await context.newPage();
  const response = await page.goto('/this/does/not/exist');
  expect(response?.status()).toBe(404);
  await expect.poll(() => page.locator('h1').textContent()).toBe("Oops! The page you're looking for doesn't exist.");
  expect(await page.title()).toContain('Page not found');
  await page.getByRole('link', { name: 'Go Back Home' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  await expect.poll(() => page.locator('h1').textContent()).toBe(PUBLIC_ROUTES[0].h1);
  expect(errors).toEqual([DOCUMENT_404_ERROR]);
  await context.close();
});

describe('site drawer', () => {
  const menus = async (page: Page) => {
    const drawer = page.getByTestId('site-drawer');
    await drawer.waitFor();
    // Wait for the slide-in to finish before measuring.
    await expect.poll(() => drawer.evaluate((el) => Math.round(window.innerWidth - el.getBoundingClientRect().right))).toBe(0);
    return {
      drawer,
      width: await drawer.evaluate((el) => el.getBoundingClientRect().width),
      right: await drawer.evaluate((el) => Math.round(window.innerWidth - el.getBoundingClientRect().right)),
      main: await drawer.getByRole('navigation', { name: 'Main menu' }).getByRole('link').allTextContents(),
      secondary: await drawer.getByRole('navigation', { name: 'Secondary menu' }).locator('a, button').allTextContents(),
    };
  };

  const cases = [
    { who: 'a visitor on desktop', viewport: DESKTOP, signedIn: false, main: ['Login', 'Contact us'], secondary: ['FAQ'] },
    {
      who: 'a visitor on a phone',
      viewport: PHONE,
      signedIn: false,
      main: ['Login', 'Contact us', 'About Us', 'Pricing Plans', 'Book a Consultation'],
      secondary: ['FAQ'],
    },
    {
      who: 'a client on desktop',
      viewport: DESKTOP,
      signedIn: true,
      main: ['Go to Dashboard', 'Contact us', 'Guide'],
      secondary: ['FAQ', 'Sign out'],
    },
    {
      who: 'a client on a phone',
      viewport: PHONE,
      signedIn: true,
      main: ['Go to Dashboard', 'Contact us', 'Guide', 'About Us', 'Pricing Plans', 'Book a Consultation'],
      secondary: ['FAQ', 'Sign out'],
    },
  ];
  for (const c of cases) {
    it(`shows the right menus to ${c.who}`, async () => {
      const user = c.signedIn ? await server.user() : undefined;
      const { context, errors } = await openContext(browser, server, { viewport: c.viewport, as: user });
      const page = await context.newPage();
      await page.goto('/faq');
      await page.getByRole('button', { name: 'Open menu' }).click();
      const m = await menus(page);
      expect(m.width).toBe(250);
      expect(m.right).toBe(0);
      expect(m.main).toEqual(c.main);
      expect(m.secondary).toEqual(c.secondary);
      // Escape closes it and gives focus back to the menu button.
      await page.keyboard.press('Escape');
      await expect.poll(() => m.drawer.count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Open menu' }).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('the 767/768 px boundary switches the extended menu', async () => {
    const { context } = await openContext(browser, server, { viewport: { width: 767, height: 900 } });
    const page = await context.newPage();
    await page.goto('/faq');
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect((await menus(page)).main).toContain('Pricing Plans');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 768, height: 900 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect((await menus(page)).main).toEqual(['Login', 'Contact us']);
    await context.close();
  });

  it('navigates and closes when a link is chosen', async () => {
    const { context, errors } = await openContext(browser, server, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('site-drawer').getByRole('link', { name: 'Pricing Plans' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pricing-plans');
    expect(await page.getByTestId('site-drawer').count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('site-drawer').getByRole('link', { name: 'Login' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs out: ends the session on the server, clears it here, goes home and says so', async () => {
    const user = await server.user();
    const { context, errors } = await openContext(browser, server, { viewport: DESKTOP, as: user });
    const page = await context.newPage();
    await page.goto('/pricing-plans');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('site-drawer').getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByText('You have been logged out successfully').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => ({ ...localStorage }))).toEqual({});
    const check = await server.request('GET', '/api/auth/check-authorization', { token: user.token });
    expect(check.status).toBe(401);
    // The menu now offers Login again.
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.getByTestId('site-drawer').getByRole('link', { name: 'Login' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
