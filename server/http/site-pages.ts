/**
 * The route table the server shares with the client build: which addresses
 * are pages, and how each is served. The prerender step renders
 * PRERENDERED_PATHS to HTML at build time; the server answers 404 (with the
 * prerendered not-found page) for any address not listed here.
 * A new top-level client route must be added here too (a unit test checks it).
 */

/** Public pages rendered to HTML at build time (title, description, canonical, Open Graph). */
export const PRERENDERED_PATHS = ['/', '/about-us', '/pricing-plans', '/faq', '/consult', '/contact-us', '/login'] as const;

/** Client-rendered pages of the public layout: they get the app shell. */
export const APP_SHELL_PATHS = ['/reset-password', '/platform-guide', '/confirm-consultation'] as const;

/** Areas the client app draws under any path (signed-in areas, and an appointment's call page). */
export const APP_SHELL_AREAS = ['/dashboard', '/admin', '/call'] as const;

/** The pages listed in sitemap.xml (signing in has nothing for a search engine). */
export const SITEMAP_PATHS = PRERENDERED_PATHS.filter((p) => p !== '/login');

/** Written into prerendered HTML where the site's origin goes; the server replaces it per response. */
export const ORIGIN_PLACEHOLDER = 'https://origin.poshan.invalid';

export type PageKind = { kind: 'prerendered'; file: string } | { kind: 'shell' } | { kind: 'not-found' };

/** The built files (relative to dist/) beside the prerendered pages. */
export const APP_SHELL_FILE = 'app-shell.html';
export const NOT_FOUND_FILE = '404.html';

/** Where a prerendered page lives in dist/: '/' → index.html, '/faq' → faq/index.html. */
export function prerenderedFile(pathname: string): string {
  return pathname === '/' ? 'index.html' : `${pathname.slice(1)}/index.html`;
}

export function pageKind(pathname: string): PageKind {
  if ((PRERENDERED_PATHS as readonly string[]).includes(pathname)) return { kind: 'prerendered', file: prerenderedFile(pathname) };
  if ((APP_SHELL_PATHS as readonly string[]).includes(pathname)) return { kind: 'shell' };
  if (APP_SHELL_AREAS.some((area) => pathname === area || pathname.startsWith(`${area}/`))) return { kind: 'shell' };
  return { kind: 'not-found' };
}
