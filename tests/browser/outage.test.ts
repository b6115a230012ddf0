import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/session.js';
import type { TestServer } from '../helpers/server.js';
import { newClient } from '../helpers/fixtures.js';
import { expectPath, signedInPage } from '../helpers/pages.js';
import { withServerAndBrowser } from '../helpers/browser-suite.js';

/**
 * An outage is an outage, not a sign-out: while the server cannot be reached
 * (network errors) or answers 503, the dashboard keeps the session, shows a
 * calm "Reconnecting…" status, and recovers by itself when the server is back.
 * The server side (a real Postgres stopped under load) is tests/integration/outage.test.ts.
 */
let server: TestServer;
let browser: Browser;

withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

const notice = (page: Page) => page.getByRole('status').filter({ hasText: 'Reconnecting…' });
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('user'));
const SERVICE_UNAVAILABLE = JSON.stringify({
  error: {
    json: {
      message: 'The service is briefly unavailable. Please try again in a moment.',
      code: -32603,
      data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 },
    },
  },
});

describe('while the server cannot be reached', () => {
  it('keeps the session, says Reconnecting…, and recovers by itself', async () => {
    const client = await newClient(server, { firstName: 'Farah', lastName: 'Khan' });
    const { context, page, errors } = await signedInPage(browser, server, client);
    // The network is down: every API call and health probe fails to connect.
    // The API and the health probe only: the client's own chunks (one is named trpc-….js) still load.
    const api = /^https?:\/\/[^/]+\/(trpc|readyz)([/?]|$)/;
    await context.route(api, (route) => route.abort('connectionrefused'));
    await page.goto('/dashboard/feeds');
    await expect.poll(() => notice(page).count(), { timeout: 15_000 }).toBe(1);
    expect(await storedToken(page)).toBe(client.token);
    expect(new URL(page.url()).pathname).toBe('/dashboard/feeds');
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);

    await context.unroute(api);
    await expect.poll(() => notice(page).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('live');
    expect(await storedToken(page)).toBe(client.token);
    // Refused connections are logged by the browser; nothing else failed.
    expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });

  it('a renewal answered 503 keeps the session; renewal succeeds once the server is back', async () => {
    const client = await newClient(server, { firstName: 'Dev', lastName: 'Rao' });
    await server.deps.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', hashToken(client.token))
      .execute();
    const { context, page, errors } = await signedInPage(browser, server, client);
    let refused = 0;
    await context.route('**/trpc/auth.refresh**', (route) => {
      refused += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', headers: { 'Retry-After': '5' }, body: SERVICE_UNAVAILABLE });
    });
    await page.goto('/dashboard/feeds');
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => notice(page).count(), { timeout: 15_000 }).toBe(1);
    expect(await storedToken(page)).toBe(client.token);
    await expectPath(page, '/dashboard/feeds');

    await context.unroute('**/trpc/auth.refresh**');
    await expect.poll(() => notice(page).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => storedToken(page), { timeout: 15_000 }).not.toBe(client.token);
    expect(await storedToken(page)).not.toBeNull();
    expect(new URL(page.url()).pathname).toBe('/dashboard/feeds');
    // The expired token's 401 and the 503s are logged by the browser; nothing else failed.
    expect(errors.filter((e) => !/40[01]|503/.test(e))).toEqual([]);
    await context.close();
  });
});
