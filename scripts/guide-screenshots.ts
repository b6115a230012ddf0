/**
 * `npm run guide:screenshots`: the Platform Guide's pictures, taken from the real app.
 *
 * Starts the app as `npm start` does (building the client when it is out of date) on a free port,
 * with a fresh embedded database and the demo data, signs in as the demo client in Chromium, opens
 * every step of src/features/auth/guide-steps.ts and saves what it shows as
 * public/images/guide/<step>.webp (encoded by Chromium itself, so no image tool is needed).
 * Run it after a change to a screen the guide shows, and commit the pictures.
 *
 * The pictures read as the service's clients see the app: India's clock and en-IN formats, the date
 * inputs included (24/11/2026, not 11/24/2026). Chromium draws those in its own locale, which on
 * Linux comes from LANGUAGE and needs Debian's translations: `apt-get install -y chromium-l10n`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../server/seed/demo.js';
import { GUIDE_PHONE_SCALE, GUIDE_PHONE_SHOT, GUIDE_SHOT, GUIDE_STEPS, type GuideStep } from '../src/features/auth/guide-steps.js';
import { CHROMIUM_PATH, launchBrowser } from '../tests/helpers/browser.js';
import { freePort } from '../tests/helpers/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public/images/guide');
const WEBP_QUALITY = 0.8;
const client = DEMO_ACCOUNTS.find((a) => a.role === 'client')!;

/**
 * Chromium's own locale (the order of a date input's day, month and year) follows LANGUAGE on Linux,
 * but only for locales it has translations for; without them it falls back to en-US.
 */
const BROWSER_LOCALE_ENV = { LANGUAGE: 'en_IN', LANG: 'en_IN.UTF-8' };
function checkBrowserLocales() {
  const locales = path.join(path.dirname(realpathSync(CHROMIUM_PATH)), '../lib/chromium/locales');
  const debian = existsSync(path.join(locales, 'en-US.pak'));
  if (debian && !existsSync(path.join(locales, 'en-GB.pak'))) {
    throw new Error('Chromium has no translations, so its date inputs would read 11/24/2026: apt-get install -y chromium-l10n');
  }
}

/** `node scripts/start.mjs` with demo data in a throw-away data directory; resolves with its URL once it serves. */
async function startApp(dataDir: string): Promise<{ url: string; app: ChildProcess }> {
  const port = await freePort();
  const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1', DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    app.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    app.once('exit', (code) => reject(new Error(`the app stopped before serving (exit ${code}):\n${out}`)));
  });
  return { url, app };
}

function stopApp(app: ChildProcess): Promise<void> {
  if (app.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    app.once('exit', () => resolve());
    app.kill('SIGTERM');
  });
}

/** Waits until the screen has its data: no request in flight and no loading state left on the page. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [data-loading="true"], .animate-spin'));
  await page.evaluate(() => document.fonts.ready);
}

/** PNG → WebP in the browser's own encoder. */
async function toWebp(encoder: Page, png: Buffer): Promise<Buffer> {
  const base64 = await encoder.evaluate(
    async ([data, quality]) => {
      const blob = await (await fetch(`data:image/png;base64,${data}`)).blob();
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
      const webp = await canvas.convertToBlob({ type: 'image/webp', quality });
      const bytes = new Uint8Array(await webp.arrayBuffer());
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      return btoa(binary);
    },
    [png.toString('base64'), WEBP_QUALITY] as const,
  );
  return Buffer.from(base64, 'base64');
}

type Device = { suffix: string; viewport: { width: number; height: number }; scale: number };
const DEVICES: Device[] = [
  { suffix: '', viewport: GUIDE_SHOT, scale: 1 },
  { suffix: '-phone', viewport: GUIDE_PHONE_SHOT, scale: GUIDE_PHONE_SCALE },
];

async function shoot(browser: Browser, baseUrl: string, steps: readonly GuideStep[], device: Device) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: device.viewport,
    deviceScaleFactor: device.scale,
    isMobile: device.scale > 1,
    hasTouch: device.scale > 1,
    reducedMotion: 'reduce',
    // Shot as the service's clients see it: India's clock (so "today" is theirs) and en-IN formats.
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  });
  // Toasts (the welcome, the live-connection notice) would cover the screen the step is about.
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '[data-sonner-toaster] { display: none !important; }';
      document.head.append(style);
    });
  });
  const page = await context.newPage();
  const encoder = await context.newPage();
  mkdirSync(outDir, { recursive: true });
  let signedIn = false;
  for (const step of steps) {
    if (step.signedIn && !signedIn) {
      await page.goto('/login');
      await page.getByLabel('Email').fill(client.email);
      await page.getByLabel('Password', { exact: true }).fill(client.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL('**/dashboard/**');
      signedIn = true;
    }
    await page.goto(step.path);
    await settle(page);
    if (step.id === 'sign-in') {
      // Show the form as a person fills it in (the password stays masked).
      await page.getByLabel('Email').fill(client.email);
      await page.getByLabel('Password', { exact: true }).fill(client.password);
      await page.getByLabel('Password', { exact: true }).blur();
    }
    const webp = await toWebp(encoder, await page.screenshot({ type: 'png' }));
    const file = `${step.id}${device.suffix}.webp`;
    writeFileSync(path.join(outDir, file), webp);
    console.log(`  ${file}  ${(webp.length / 1024).toFixed(0)} KB  ${step.path}`);
  }
  await context.close();
}

checkBrowserLocales();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'poshan-guide-'));
const { url, app } = await startApp(dataDir);
let browser: Browser | undefined;
try {
  console.log(`Taking the guide's screenshots from ${url}`);
  browser = await launchBrowser({ env: BROWSER_LOCALE_ENV });
  for (const device of DEVICES) await shoot(browser, url, GUIDE_STEPS, device);
  console.log(`Saved ${GUIDE_STEPS.length * DEVICES.length} screenshots in ${path.relative(root, outDir)}/`);
} finally {
  await browser?.close();
  await stopApp(app);
  rmSync(dataDir, { recursive: true, force: true });
}
