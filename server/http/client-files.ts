import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Context, Hono } from 'hono';
import { type Encoding, negotiateEncoding, varyOnEncoding } from './compression.js';
import { APP_SHELL_FILE, NOT_FOUND_FILE, ORIGIN_PLACEHOLDER, pageKind, SITEMAP_PATHS } from './site-pages.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

/** Build output under /assets/ has a content hash in its name: cache it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';
/** HTML names the current hashed assets: always revalidate. */
const HTML_CACHE = 'no-cache';
/** The service worker names them too (its precache list): a new version must be seen at once (decision 116). */
const SERVICE_WORKER = '/sw.js';

const PRECOMPRESSED: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

async function fileStat(file: string) {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * The built client: static files (served with their build-time .br/.gz copy
 * when the browser takes it), the prerendered public pages, the app shell for
 * client-rendered routes, the 404 page with status 404 for unknown addresses,
 * and robots.txt / sitemap.xml. The site's origin (canonical and Open Graph
 * URLs) is `publicUrl` when configured, else the address the request came to.
 */
export function clientFiles(distDir: string, opts: { publicUrl?: string } = {}) {
  const root = path.resolve(distDir);
  const app = new Hono();
  const originOf = (c: Context) => (opts.publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');

  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', SHORT);
    return c.text(
      ['User-agent: *', 'Allow: /', 'Disallow: /dashboard', 'Disallow: /admin', '', `Sitemap: ${originOf(c)}/sitemap.xml`, ''].join('\n'),
    );
  });

  app.get('/sitemap.xml', (c) => {
    const origin = originOf(c);
    const urls = SITEMAP_PATHS.map((p) => `  <url><loc>${origin}${p}</loc></url>`).join('\n');
    c.header('Content-Type', TYPES['.xml']);
    c.header('Cache-Control', SHORT);
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
    );
  });

  async function html(c: Context, file: string, status: 200 | 404) {
    const candidates = [file, APP_SHELL_FILE, 'index.html'];
    for (const name of candidates) {
      const text = await readFile(path.join(root, name), 'utf8').catch(() => null);
      if (text === null) continue;
      c.header('Cache-Control', HTML_CACHE);
      return c.html(text.replaceAll(ORIGIN_PLACEHOLDER, originOf(c)), status);
    }
    return c.text('The web client is not built (npm run build).', 503);
  }

  /** The request's path decoded, or null when its percent-encoding is broken. */
  const decodedPath = (c: Context) => {
    try {
      return decodeURIComponent(c.req.path);
    } catch {
      return null;
    }
  };

  app.get('*', async (c) => {
    const pathname = decodedPath(c);
    if (pathname === null) return html(c, NOT_FOUND_FILE, 404);
    if (pathname.length > 1 && pathname.endsWith('/')) {
      const url = new URL(c.req.url);
      return c.redirect(`${pathname.replace(/\/+$/, '') || '/'}${url.search}`, 301);
    }

    // A file of the build (never a page file or a compressed copy by its own name).
    const ext = path.extname(pathname).toLowerCase();
    const file = path.join(root, pathname);
    if (ext && ext !== '.html' && ext !== '.br' && ext !== '.gz' && file.startsWith(`${root}${path.sep}`) && !pathname.includes('\0')) {
      const found = await fileStat(file);
      if (found) {
        const cache = pathname.startsWith('/assets/') ? IMMUTABLE : pathname === SERVICE_WORKER ? HTML_CACHE : SHORT;
        return serveFile(c, file, ext, found.size, found.mtimeMs, cache);
      }
    }

    const page = pageKind(pathname);
    if (page.kind === 'prerendered') return html(c, page.file, 200);
    if (page.kind === 'shell') return html(c, APP_SHELL_FILE, 200);
    return html(c, NOT_FOUND_FILE, 404);
  });

  // Every form posts to its own page (method="post", no action), and the page's inline loader holds the
  // submit until the app sends it (decision 102), so a POST arrives here only from a browser whose
  // JavaScript never ran. Sessions live in the app (a bearer token it keeps), so there is nothing to do
  // with the fields here: they are not read, and the visitor is sent back to the page with a GET (303,
  // so a reload does not post them again).
  app.post('*', (c) => {
    const pathname = decodedPath(c);
    if (pathname === null || pageKind(pathname).kind === 'not-found') return html(c, NOT_FOUND_FILE, 404);
    const url = new URL(c.req.url);
    return c.redirect(`${url.pathname}${url.search}`, 303);
  });

  async function serveFile(c: Context, file: string, ext: string, size: number, mtimeMs: number, cacheControl: string) {
    const type = TYPES[ext] ?? 'application/octet-stream';
    const encoding = negotiateEncoding(c.req.header('Accept-Encoding'));
    let body = file;
    let etag = `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}"`;
    let contentEncoding: Encoding | null = null;
    if (encoding) {
      const variant = `${file}${PRECOMPRESSED[encoding]}`;
      if (await fileStat(variant)) {
        body = variant;
        contentEncoding = encoding;
        etag = `${etag.slice(0, -1)}-${encoding}"`;
      }
    }
    const headers = new Headers({ 'Content-Type': type, 'Cache-Control': cacheControl, ETag: etag });
    // Every file that has compressed copies answers differently per Accept-Encoding.
    if (contentEncoding || (await fileStat(`${file}.gz`))) varyOnEncoding(headers);
    if (contentEncoding) headers.set('Content-Encoding', contentEncoding);
    const ifNoneMatch = c.req.header('If-None-Match');
    if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers });
    }
    const bytes = await readFile(body);
    headers.set('Content-Length', String(bytes.byteLength));
    return new Response(bytes, { status: 200, headers });
  }

  return app;
}
