import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * A client's photos must not stay in a shared browser after they sign out:
 * the files are never kept in the HTTP cache, and the sign-out's answer tells
 * the browser to empty its cache of this site, over REST and tRPC alike.
 */

let server: TestServer;
let client: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  client = await server.user({ firstName: 'Shared' });
}, 180_000);
afterAll(() => server?.stop());

const signInAgain = async () => (await issueSession(server.deps.db, client.id)).token;
const trpcSignOut = (token: string | undefined) =>
  fetch(`${server.url}/trpc/auth.signOut`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ json: {} }),
  });

describe('signing out empties the browser’s cache of this site', () => {
  it('over REST', async () => {
    const res = await server.request('PUT', '/api/auth/sign-out', { token: await signInAgain(), body: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('clear-site-data')).toBe('"cache"');
    // Already signed out (the session ended elsewhere): the browser is told all the same.
    const again = await server.request('PUT', '/api/auth/sign-out', { token: 'gone', body: {} });
    expect(again.status).toBe(401);
    expect(again.headers.get('clear-site-data')).toBe('"cache"');
  });

  it('over tRPC, and only for the sign-out', async () => {
    const res = await trpcSignOut(await signInAgain());
    expect(res.status).toBe(200);
    expect(res.headers.get('clear-site-data')).toBe('"cache"');
    const other = await fetch(`${server.url}/trpc/auth.checkAuthorization`, { headers: { authorization: `Bearer ${client.token}` } });
    expect(other.status).toBe(200);
    expect(other.headers.get('clear-site-data')).toBeNull();
  });
});

describe('private files are never kept in the HTTP cache', () => {
  it('a photo and its thumbnail opened through their signed links, or with the bearer token', async () => {
    const photo = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#a80' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)]), 'plate.jpg');
    const uploaded = await fetch(`${server.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { data } = (await uploaded.json()) as { data: { url: string; thumbnailUrl: string } };
    for (const [link, token] of [
      [data.url, undefined],
      [data.thumbnailUrl, undefined],
      [data.url.split('?')[0]!, client.token],
    ] as const) {
      const res = await fetch(new URL(link, server.url), { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(res.status, link).toBe(200);
      expect(res.headers.get('cache-control'), link).toBe('private, no-store');
      await res.arrayBuffer();
    }
  });
});
