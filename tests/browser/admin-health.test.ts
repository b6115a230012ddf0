import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP } from '../helpers/browser.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { wsClient } from '../helpers/callers.js';
import { expectToast, screenshot, signInAsAdmin, sharedPage } from '../helpers/pages.js';

/** The Overview's operational health: clients live now, the last error, failed mails with a retry. */
let server: TestServer;
let admin: TestUser;
let page: Page;
let errors: string[];
sharedPage({ viewport: DESKTOP }, async (shared) => {
  ({ server, page, errors } = shared);
  admin = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
});

describe('the Overview’s operational health', () => {
  it('shows the live clients and a failed mail, and retries it', async () => {
    const client = await server.user({ firstName: 'Asha' });
    const live = wsClient(server.url, client.token);
    const kinds: string[] = [];
    const sub = live.client.feed.events.subscribe(undefined, { onData: (t) => kinds.push(t.data.kind) });
    try {
      await expect.poll(() => kinds.includes('ready'), { timeout: 10_000 }).toBe(true);
      await server.deps.db
        .insertInto('outbox')
        .values({
          to_address: 'asha@example.test',
          subject: 'Your diet plan is ready',
          body_text: 'Hello Asha',
          status: 'failed',
          error: 'connect ECONNREFUSED 10.0.0.5:587',
        })
        .execute();

      await signInAsAdmin(page, admin);
      const health = page.getByTestId('operational-health');
      await expect.poll(() => page.getByTestId('health-live-clients').textContent()).toBe('1');
      expect(await page.getByTestId('health-last-error').textContent()).toBe('None since the server started');
      expect(await page.getByTestId('health-failed-mails').textContent()).toBe('1');
      const row = health.getByTestId('failed-mail');
      expect(await row.textContent()).toContain('Your diet plan is ready');
      expect(await row.textContent()).toContain('ECONNREFUSED');
      await screenshot(page, 'admin-overview-health');

      await row.getByRole('button', { name: 'Retry' }).click();
      await expectToast(page, /was sent again/);
      await expect.poll(() => page.getByTestId('health-failed-mails').textContent()).toBe('0');
      expect(await health.getByTestId('failed-mail').count()).toBe(0);
      const mail = await server.deps.db
        .selectFrom('outbox')
        .select('status')
        .where('to_address', '=', 'asha@example.test')
        .executeTakeFirstOrThrow();
      expect(mail.status).toBe('logged');
    } finally {
      sub.unsubscribe();
      live.close();
    }
    expect(errors).toEqual([]);
  });
});
