import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFiles } from './client-files.js';
import { COMPRESSION_THRESHOLD, compressResponses, negotiateEncoding } from './compression.js';
import { ORIGIN_PLACEHOLDER } from './site-pages.js';

let dist: string;
let app: Hono;
const script = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

beforeAll(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'poshan-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'faq'));
  writeFileSync(path.join(dist, 'assets/app-abc123.js'), script);
  writeFileSync(path.join(dist, 'assets/app-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'assets/app-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0, 1, 0]));
  const page = (name: string) =>
    `<!doctype html><html><head><title>${name}</title><link rel="canonical" href="${ORIGIN_PLACEHOLDER}/${name}"></head><body>${'<p>words</p>'.repeat(200)}</body></html>`;
  writeFileSync(path.join(dist, 'index.html'), page('home'));
  writeFileSync(path.join(dist, 'faq/index.html'), page('faq'));
  writeFileSync(path.join(dist, 'app-shell.html'), page('shell'));
  writeFileSync(path.join(dist, '404.html'), page('not-found'));
  app = new Hono();
  app.use('*', compressResponses());
  app.get('/api/big', (c) => c.json({ items: Array.from({ length: 200 }, (_, i) => ({ i, name: `item ${i}` })) }));
  app.get('/api/small', (c) => c.json({ ok: true }));
  app.route('/', clientFiles(dist));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (p: string, headers: Record<string, string> = {}) => app.request(`http://poshan.test${p}`, { headers });

describe('Accept-Encoding negotiation', () => {
  it('prefers Brotli, honours q-values and refusals', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
  });
});

describe('static files', () => {
  it('sends the build-time Brotli or gzip copy with Content-Encoding and Vary', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(br.headers.get('cache-control')).toContain('immutable');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(script);

    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await plain.text()).toBe(script);
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const first = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const etag = first.headers.get('etag')!;
    const again = await get('/assets/app-abc123.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    const otherEncoding = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(otherEncoding.status).toBe(200);
  });

  it('serves a real favicon.ico, not the HTML page', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
  });

  it('a missing asset is a 404, never the HTML shell with 200', async () => {
    const res = await get('/assets/gone-123.js');
    expect(res.status).toBe(404);
  });

  it('never serves files outside the build', async () => {
    const res = await get('/assets/..%2f..%2fetc%2fpasswd.txt');
    expect(res.status).toBe(404);
  });
});

describe('pages', () => {
  it('serves a prerendered page with its canonical URL on the request origin, compressed on the fly', async () => {
    const res = await get('/faq', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString();
    expect(html).toContain('<title>faq</title>');
    expect(html).toContain('<link rel="canonical" href="http://poshan.test/faq">');
    expect(html).not.toContain(ORIGIN_PLACEHOLDER);
  });

  it('uses the configured public URL for canonical links when there is one', async () => {
    const configured = new Hono().route('/', clientFiles(dist, { publicUrl: 'https://poshan.example/' }));
    const html = await (await configured.request('http://10.0.0.5/faq')).text();
    expect(html).toContain('href="https://poshan.example/faq"');
  });

  it('gives client-rendered routes the app shell with 200', async () => {
    for (const p of ['/dashboard', '/dashboard/feeds', '/admin/clients/4', '/reset-password', '/platform-guide']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain('<title>shell</title>');
    }
  });

  it('answers an unknown address with the 404 page and status 404', async () => {
    for (const p of ['/no-such-page', '/about', '/dashboardx', '/index.html']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).toContain('<title>not-found</title>');
    }
  });

  it('redirects a trailing slash to the page address', async () => {
    const res = await get('/faq/?q=1');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/faq?q=1');
  });
});

describe('a form posted natively (the page’s JavaScript never ran)', () => {
  /** A form body that records whether anything read it. */
  const postTo = (p: string) => {
    let read = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read = true;
          controller.enqueue(new TextEncoder().encode('email=a%40b.test&password=secret'));
          controller.close();
        },
      },
      // Nothing is pulled until someone reads.
      { highWaterMark: 0 },
    );
    const res = app.request(`http://poshan.test${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      duplex: 'half',
    } as RequestInit);
    return { res, wasRead: () => read };
  };

  it('sends the visitor back to the page with a GET, without reading the fields', async () => {
    for (const [p, location] of [
      ['/login', '/login'],
      ['/faq', '/faq'],
      ['/consult?book=true', '/consult?book=true'],
      ['/reset-password?token=abc', '/reset-password?token=abc'],
    ]) {
      const { res, wasRead } = postTo(p!);
      const answer = await res;
      expect(answer.status, p).toBe(303);
      expect(answer.headers.get('location'), p).toBe(location);
      expect(wasRead(), p).toBe(false);
    }
  });

  it('answers an unknown address with the 404 page, and redirects nowhere else', async () => {
    for (const p of ['/nope', '//evil.example/login', '/%E0%A4%A']) {
      const answer = await postTo(p).res;
      expect(answer.status, p).toBe(404);
      expect(answer.headers.get('location'), p).toBeNull();
      expect(await answer.text()).toContain('not-found');
    }
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt is plain text that points at the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toContain('Sitemap: http://poshan.test/sitemap.xml');
  });

  it('sitemap.xml lists the public pages as absolute URLs', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain('<loc>http://poshan.test/</loc>');
    expect(xml).toContain('<loc>http://poshan.test/pricing-plans</loc>');
    expect(xml).not.toContain('/dashboard');
  });
});

describe('on-the-fly compression of API JSON', () => {
  it(`compresses JSON of at least ${COMPRESSION_THRESHOLD} bytes and leaves small answers alone`, async () => {
    const big = await get('/api/big', { 'accept-encoding': 'gzip' });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(big.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = JSON.parse(gunzipSync(Buffer.from(await big.arrayBuffer())).toString());
    expect(body.items).toHaveLength(200);
    expect(Number(big.headers.get('content-length'))).toBeLessThan(JSON.stringify(body).length);

    const small = await get('/api/small', { 'accept-encoding': 'br' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual({ ok: true });

    const identity = await get('/api/big');
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect((await identity.json()).items).toHaveLength(200);
  });
});
