import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * The usual frame of a browser test file: a test server that serves this run's client build and one
 * Chromium, started before the file's tests (both at once) and stopped after them. `use` receives
 * both once they are up, so the file keeps them in its own variables.
 */
export function withServerAndBrowser(use: (server: TestServer, browser: Browser) => void) {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({}, { serveClient: true }), launchBrowser()]);
    use(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
