import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, chatLink, SITE } from '../../src/site-config.js';
import { DESKTOP, openContext, PHONE } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { intersectionSettled } from '../helpers/pages.js';
import { chatText, expectNewTab } from '../helpers/public-site.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/** The home page's behaviours, in real Chromium. */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

async function openHome(viewport: { width: number; height: number } = DESKTOP, reducedMotion = false) {
  const opened = await openContext(browser, server, { viewport, reducedMotion });
  const page = await opened.context.newPage();
  await page.goto('/');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Eat the food you love. Reach the health you want.');
  return { ...opened, page };
}

/** Scrolls so that `fraction` of the element is visible at the bottom of the viewport. */
async function revealFraction(page: Page, testId: string, fraction: number) {
  await page.getByTestId(testId).evaluate((el, f) => {
    const rect = el.getBoundingClientRect();
    const top = rect.top + window.scrollY;
    window.scrollTo({ top: top - window.innerHeight + rect.height * f, behavior: 'instant' });
  }, fraction);
  await intersectionSettled(page.getByTestId(testId));
}

it('has the sections in the spec order', async () => {
  const { context, page, errors } = await openHome();
  const order = await page
    .locator('main > * > section, main > section')
    .evaluateAll((sections) => sections.map((s) => s.getAttribute('aria-labelledby')));
  expect(order).toEqual([
    'hero-title',
    'free-trial-title',
    'stats-title',
    'stories-title',
    'connect-title',
    'courses-title',
    'ai-title',
    'why-title',
    'testimonials-title',
    'founder-title',
    'social-title',
  ]);
  // Without a configured media address the hero shows its poster, not a broken video.
  expect(await page.locator('section[aria-labelledby="hero-title"] video').count()).toBe(SITE.videos.hero ? 1 : 0);
  expect(await page.locator('section[aria-labelledby="hero-title"] img[src="/images/hero-poster.svg"]').count()).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});

describe('stat counters', () => {
  it('count up in about 4 s in 24 ms ticks once visible, with + or %', async () => {
    const { context, page, errors } = await openHome();
    const stat = (id: number) => page.getByTestId(`stat-${id}`);
    // Not yet on screen: nothing has counted.
    expect(await stat(1).textContent()).toBe('0+');
    // Every value it shows, timed in the page from the scroll that reveals it (not by polling from here).
    const { samples, took } = await stat(1).evaluate(
      (el) =>
        new Promise<{ samples: number[]; took: number }>((resolve, reject) => {
          const started = performance.now();
          const samples: number[] = [];
          const observer = new MutationObserver(() => {
            const text = el.textContent ?? '';
            samples.push(Number.parseInt(text, 10));
            if (text !== '250+') return;
            observer.disconnect();
            resolve({ samples, took: performance.now() - started });
          });
          observer.observe(el, { characterData: true, childList: true, subtree: true });
          el.scrollIntoView({ block: 'center', behavior: 'instant' });
          setTimeout(() => {
            observer.disconnect();
            reject(new Error(`not at 250+ 7 s after it showed; saw ${samples.join(', ')}`));
          }, 7000);
        }),
    );
    expect(took, `took ${took} ms`).toBeGreaterThan(3000);
    expect(took, `took ${took} ms`).toBeLessThan(6000);
    // It climbed through intermediate values, never backwards.
    expect(samples.filter((n) => n > 0 && n < 250).length).toBeGreaterThan(10);
    expect([...samples].sort((a, b) => a - b)).toEqual(samples);
    await expect.poll(() => stat(2).textContent()).toBe('300+');
    await expect.poll(() => stat(3).textContent()).toBe('98%');
    expect(await stat(4).textContent()).toBe('24/7');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('show the final figures at once when the visitor prefers reduced motion', async () => {
    const { context, page, errors } = await openHome(DESKTOP, true);
    await page.getByTestId('stat-1').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('stat-1').textContent(), { timeout: 500, interval: 50 }).toBe('250+');
    expect(await page.getByTestId('stat-3').textContent()).toBe('98%');
    // Sections are simply shown, without waiting for an animation.
    expect(await page.getByTestId('stories').getAttribute('data-shown')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('animate-in', () => {
  it('shows connect-us and stories at 20% visibility and the free-trial banner at 30%, once', async () => {
    const { context, page, errors } = await openHome();
    for (const [testId, threshold] of [
      ['free-trial', 0.3],
      ['stories', 0.2],
      ['connect', 0.2],
    ] as const) {
      await revealFraction(page, testId, threshold - 0.1);
      expect(await page.getByTestId(testId).getAttribute('data-shown'), `${testId} below its threshold`).toBe('false');
      await revealFraction(page, testId, threshold + 0.1);
      await expect.poll(() => page.getByTestId(testId).getAttribute('data-shown'), { timeout: 2000 }).toBe('true');
    }
    // Once shown, a section stays shown when it leaves the screen.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await intersectionSettled(page.getByTestId('connect'));
    expect(await page.getByTestId('connect').getAttribute('data-shown')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('stories carousel', () => {
  it('shows one story per page below 640 px, with Previous disabled first and Next disabled last', async () => {
    const { context, page, errors } = await openHome(PHONE);
    const prev = page.getByRole('button', { name: 'Previous stories' });
    const next = page.getByRole('button', { name: 'Next stories' });
    const position = page.getByTestId('stories-position');
    const cards = page.getByTestId('stories-page').locator('figure');
    await prev.scrollIntoViewIfNeeded();
    expect(await position.textContent()).toBe('1 of 4');
    expect(await cards.count()).toBe(1);
    expect(await prev.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    for (const n of [2, 3, 4]) {
      await next.click();
      await expect.poll(() => position.textContent()).toBe(`${n} of 4`);
    }
    expect(await next.isDisabled()).toBe(true);
    expect(await prev.isDisabled()).toBe(false);
    expect(await cards.locator('figcaption').textContent()).toContain('Vikram');
    // Focus moved from the now-disabled Next to Previous, so keyboard users keep their place.
    expect(await prev.evaluate((el) => el === document.activeElement)).toBe(true);

    // Widening to two per page keeps a page that exists.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => position.textContent()).toBe('2 of 2');
    expect(await cards.count()).toBe(2);
    expect(await next.isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows two stories per page from 640 px', async () => {
    const { context, page, errors } = await openHome({ width: 640, height: 900 });
    const prev = page.getByRole('button', { name: 'Previous stories' });
    const next = page.getByRole('button', { name: 'Next stories' });
    const cards = page.getByTestId('stories-page').locator('figure');
    expect(await cards.count()).toBe(2);
    expect(await page.getByTestId('stories-position').textContent()).toBe('1 of 2');
    expect(await prev.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(() => page.getByTestId('stories-position').textContent()).toBe('2 of 2');
    expect(await next.isDisabled()).toBe(true);
    await prev.click();
    await expect.poll(() => prev.isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('connect-us cards', () => {
  it('card 1 opens the chat in a new tab, the card with a link navigates', async () => {
    const { context, page, errors } = await openHome(PHONE);
    const chat = page.getByTestId('connect-card-1').getByRole('link');
    await expectNewTab(chat);
    expect(chatText(await chat.getAttribute('href'))).toBe(CHAT_MESSAGES.instantMessage);

    await page.getByTestId('connect-card-3').getByRole('link').click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/consult?book=true');
    await expect.poll(() => page.getByRole('dialog', { name: 'Schedule Your Consultation' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the card without a link opens Contact Us, which closes by its icon, its Close button, a click outside and Escape', async () => {
    const { context, page, errors } = await openHome(DESKTOP);
    const card = page.getByTestId('connect-card-2').getByRole('button', { name: /Call an expert/ });
    const dialog = page.getByRole('dialog', { name: 'Contact Us' });
    const closers: [string, () => Promise<void>][] = [
      ['close icon', () => dialog.getByRole('button', { name: 'Close' }).first().click()],
      ['Close button', () => dialog.getByRole('button', { name: 'Close', exact: true }).last().click()],
      ['outside click', () => page.mouse.click(10, 10)],
      ['Escape', () => page.keyboard.press('Escape')],
    ];
    for (const [how, close] of closers) {
      await card.click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain(SITE.phoneDisplay);
      await close();
      await expect.poll(() => dialog.count(), { message: how }).toBe(0);
    }
    // The two close controls are the icon in the header and the text button at the bottom.
    await card.click();
    expect(await dialog.getByRole('button', { name: 'Close' }).allTextContents()).toEqual(['', 'Close']);
    expect(errors).toEqual([]);
    await context.close();
  });
});

it('opens chats with prefilled, URL-encoded text for the free trial, courses and Consult Now', async () => {
  const { context, page, errors } = await openHome(PHONE);
  const trial = page.getByRole('link', { name: /Start my free trial/ });
  const enrol = page.getByRole('link', { name: /Enrol now/ });
  const consult = page.getByRole('link', { name: /Consult Now/ });
  for (const [link, message] of [
    [trial, CHAT_MESSAGES.freeTrial],
    [enrol, CHAT_MESSAGES.courses],
    [consult, CHAT_MESSAGES.consult],
  ] as const) {
    await expectNewTab(link);
    const href = await link.getAttribute('href');
    expect(href).toBe(chatLink(message));
    expect(href).toBe(`https://wa.me/${SITE.whatsappNumber}?text=${encodeURIComponent(message)}`);
    expect(href).not.toContain(' ');
  }
  expect(CHAT_MESSAGES.courses).toContain('online certification courses');
  expect(CHAT_MESSAGES.consult).toMatch(/personalised diet plan.*consult/);
  expect(chatText(await trial.getAttribute('href'))).toContain(`${SITE.freeTrialDays}-day free trial`);
  expect(errors).toEqual([]);
  await context.close();
});

it('lists three testimonials with image, name, review and month posted, and Read More About Us goes to /about-us', async () => {
  const { context, page, errors } = await openHome(DESKTOP);
  const cards = page.locator('section[aria-labelledby="testimonials-title"] figure');
  expect(await cards.count()).toBe(3);
  for (const card of await cards.all()) {
    expect(await card.locator('img').getAttribute('src')).toMatch(/^\/images\/clients\/.+\.svg$/);
    expect(await card.locator('time').textContent()).toMatch(/^[A-Z][a-z]+ 20\d\d$/);
    expect((await card.locator('blockquote').textContent())?.length).toBeGreaterThan(60);
  }
  await page.getByRole('link', { name: 'Read More About Us' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/about-us');
  expect(errors).toEqual([]);
  await context.close();
});

it('shows the reviews the dietitians published once there are three, with their stars and month', async () => {
  const reviews = [
    { first: 'Meenakshi', halfStars: 10, comment: 'My sugar readings are finally steady and I never feel deprived.' },
    { first: 'Tarun', halfStars: 9, comment: 'Practical meals for a hostel kitchen. Gained 5 kg of muscle in four months.' },
    { first: 'Ishita', halfStars: 10, comment: 'The weekly check-ins kept me honest. Kind, patient and always on time.' },
  ];
  for (const r of reviews) {
    const user = await server.user({ firstName: r.first });
    await server.deps.db
      .insertInto('ratings')
      .values({ user_id: user.id, half_stars: r.halfStars, comment: r.comment, is_published: true })
      .execute();
  }
  const { context, page, errors } = await openHome(DESKTOP);
  const list = page.getByTestId('testimonials');
  await expect.poll(() => list.getAttribute('data-source')).toBe('published');
  const names = await list.locator('figcaption span.block').allTextContents();
  expect(names.sort()).toEqual(['Ishita', 'Meenakshi', 'Tarun']);
  expect(await list.getByRole('img', { name: 'Rated 4.5 out of 5' }).count()).toBe(1);
  const month = new Date().toISOString().slice(0, 7);
  expect(await list.locator(`time[datetime="${month}"]`).count()).toBe(3);
  expect(errors).toEqual([]);
  await context.close();
});
