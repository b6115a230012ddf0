import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestServer, TestUser } from './server.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, and quiet on this machine's closed network. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/**
 * Debian's Chromium, headless, with the flags this machine's closed network needs. `env` is added to
 * the browser's environment (e.g. LANGUAGE, which sets its own locale on Linux); `args` are more flags
 * (FAKE_MEDIA_FLAGS for calls).
 */
export async function launchBrowser(opts: { env?: Record<string, string>; args?: string[] } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...(opts.args ?? [])],
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
  });
}

/** A camera and microphone that play a test pattern and a tone, allowed without asking (WebRTC calls). */
export const FAKE_MEDIA_FLAGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] as const;

export const PHONE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;

export type PageOptions = {
  viewport?: { width: number; height: number };
  /** Signs the page in as this user by storing the session exactly as the login page does. */
  as?: TestUser & { fullName?: string; height?: number | null; weight?: number | null };
  reducedMotion?: boolean;
};

/**
 * A fresh browser context on the test server. Fails the test on any page
 * error or console error (unless the test takes them with `errors`).
 */
export async function openContext(browser: Browser, server: TestServer, opts: PageOptions = {}) {
  const context: BrowserContext = await browser.newContext({
    baseURL: server.url,
    viewport: opts.viewport ?? DESKTOP,
    reducedMotion: opts.reducedMotion ? 'reduce' : 'no-preference',
  });
  if (opts.as) {
    const u = opts.as;
    const info = { id: u.id, fullName: u.fullName ?? 'Test User', height: u.height ?? null, weight: u.weight ?? null };
    await context.addInitScript(
      ([token, refresh, infoJson]) => {
        // about:blank (every new page starts there) has no storage of its own.
        if (location.origin === 'null') return;
        if (!sessionStorage.getItem('__seeded')) {
          localStorage.setItem('user', token);
          localStorage.setItem('refresh_user', refresh);
          localStorage.setItem('info', infoJson);
          sessionStorage.setItem('__seeded', '1');
        }
      },
      [u.token, u.refreshToken, JSON.stringify(info)] as const,
    );
  }
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
    });
  };
  context.on('page', (page) => {
    watch(page);
    waitForHydrationAfterLoads(page);
  });
  return { context, errors };
}

/**
 * Public pages arrive prerendered: their buttons are on screen before React has hydrated them, and a
 * click in that moment is lost. goto and reload therefore also wait until the app marks the page
 * interactive (src/app/App.tsx), for HTML pages of the app; PDFs and other files are left alone.
 */
function waitForHydrationAfterLoads(page: Page) {
  const hydrated = async <T extends Awaited<ReturnType<Page['goto']>>>(response: T): Promise<T> => {
    if (response?.headers()['content-type']?.includes('text/html')) {
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 30_000 });
    }
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => hydrated(await goto(...args));
  page.reload = async (...args) => hydrated(await reload(...args));
}

/**
 * Opens a page without waiting for the app to attach (unlike `page.goto` on pages of openContext), to act
 * on the prerendered markup as a visitor on a slow phone does. Returns once the response has started.
 */
export function gotoBeforeHydration(page: Page, url: string) {
  const plainGoto = Object.getPrototypeOf(page).goto as Page['goto'];
  return plainGoto.call(page, url, { waitUntil: 'commit' });
}
