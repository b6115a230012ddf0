import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Manifest, type Plugin, type ResolvedConfig } from 'vite';
import { BRAND } from '../../server/brand.js';
import { formsThatCouldGet, PAINT_FIRST_SCRIPT } from '../../server/http/paint-first.js';
import { APP_SHELL_FILE, NOT_FOUND_FILE, ORIGIN_PLACEHOLDER, PRERENDERED_PATHS, prerenderedFile } from '../../server/http/site-pages.js';

/**
 * The lazily loaded module of each prerendered page: its chunk (and CSS) is preloaded by the
 * page's HTML. The home page ships inside the public layout's chunk.
 */
const PAGE_MODULES: Record<(typeof PRERENDERED_PATHS)[number] | '404', string | null> = {
  '/': null,
  '/about-us': 'src/features/public/about/AboutPage.tsx',
  '/pricing-plans': 'src/features/public/pricing/PricingPage.tsx',
  '/faq': 'src/features/public/faq/FaqPage.tsx',
  '/consult': 'src/features/public/consult/ConsultPage.tsx',
  '/contact-us': 'src/features/public/contact/ContactPage.tsx',
  '/login': 'src/features/auth/LoginPage.tsx',
  '404': 'src/features/public/NotFoundPage.tsx',
};
/**
 * What lazyWithData evaluates ahead of these pages' screens while they hydrate, one group per task
 * (src/lib/lazy-with-data.tsx; the lists in src/features/public/PublicArea.tsx): the data layer and
 * the form libraries. Their chunks are preloaded with the page's own.
 */
const DATA_LAYER = 'src/lib/data-provider.tsx';
const FORM_HOOKS = 'src/lib/form-libraries/react-hook-form.ts';
const STAGES_BEFORE: Partial<Record<keyof typeof PAGE_MODULES, string[]>> = {
  '/contact-us': [DATA_LAYER, FORM_HOOKS],
  '/login': [DATA_LAYER, FORM_HOOKS],
};

/** Rendered at an address no route matches, to get the not-found page. */
const NOT_FOUND_URL = '/__not-found__';
const LAYOUT_MODULE = 'src/features/public/PublicArea.tsx';

const escapeHtml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Every JS chunk and stylesheet a module needs, through its static imports. */
function chunksOf(manifest: Manifest, key: string, seen = new Set<string>()): { js: string[]; css: string[] } {
  const out = { js: [] as string[], css: [] as string[] };
  const chunk = manifest[key];
  if (!chunk) throw new Error(`prerender: ${key} is not in the build manifest (moved or renamed? update PAGE_MODULES)`);
  if (seen.has(key)) return out;
  seen.add(key);
  out.js.push(chunk.file);
  out.css.push(...(chunk.css ?? []));
  for (const dep of chunk.imports ?? []) {
    const more = chunksOf(manifest, dep, seen);
    out.js.push(...more.js);
    out.css.push(...more.css);
  }
  return out;
}

type Head = { title: string; description?: string } | null;

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+)">/g;

/**
 * The page's JavaScript, loaded once the prerendered HTML has painted (decision 062): the template's
 * entry script and module preloads leave the head, and the one inline loader at the end of the body
 * (server/http/paint-first.ts) asks for the entry and every chunk the page needs together.
 */
export function paintFirst(html: string, js: string[]) {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error('prerender: index.html has no <script type="module" crossorigin src="/assets/…"> entry');
  const preloaded = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const modules = [...new Set([...preloaded, ...js.map((href) => `/${href}`)])].filter((href) => href !== entry);
  const loader = `<script data-entry="${entry}" data-modules="${modules.join(' ')}">${PAINT_FIRST_SCRIPT}</script>`;
  if (!html.includes('</body>')) throw new Error('prerender: index.html has no </body>');
  return html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '').replace('</body>', `  ${loader}\n  </body>`);
}

/** The font file the pages' text uses (src/styles/fonts.css): every page preloads it. */
const TEXT_FONT = /^assets\/inter-text-wght-[\w-]+\.woff2$/;
export function textFontOf(manifest: Manifest): string {
  const files = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.assets ?? [])]);
  const font = files.find((file) => TEXT_FONT.test(file));
  if (!font) throw new Error('prerender: the Inter text face is not in the build (src/styles/fonts.css changed? update TEXT_FONT)');
  return font;
}

/** A preload of the text font, for the head of every page (crossorigin: fonts are fetched in CORS mode). */
export const fontPreload = (font: string) => `<link rel="preload" as="font" type="font/woff2" crossorigin href="/${font}">`;

/** The built index.html with the page's markup in #root and its own head. */
export function pageHtml(
  template: string,
  opts: { path: string | null; markup: string; head: Head; js: string[]; css: string[]; font: string },
) {
  const { head } = opts;
  const title = head?.title ?? `${BRAND.name} — ${BRAND.tagline}`;
  const description = head?.description ?? /<meta name="description" content="([^"]*)"/.exec(template)?.[1] ?? '';
  const url = opts.path === null ? null : `${ORIGIN_PLACEHOLDER}${opts.path}`;
  const tags = [
    ...opts.css.filter((href) => !template.includes(`/${href}"`)).map((href) => `<link rel="stylesheet" crossorigin href="/${href}">`),
    url ? `<link rel="canonical" href="${url}">` : '<meta name="robots" content="noindex">',
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(BRAND.name)}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    ...(url ? [`<meta property="og:url" content="${url}">`] : []),
    `<meta name="twitter:card" content="summary">`,
  ];
  const withHead = template
    // The font preload before the stylesheets, so the font is asked for first.
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>\n    ${fontPreload(opts.font)}`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(description)}" />`)
    .replace('</head>', `  ${tags.join('\n    ')}\n  </head>`);
  if (!withHead.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty <div id="root"></div>');
  return paintFirst(withHead.replace('<div id="root"></div>', `<div id="root">${opts.markup}</div>`), opts.js);
}

/**
 * Puts the page's stylesheets into the HTML itself: the first paint then needs
 * one response, not the HTML and then a render-blocking stylesheet a round trip later.
 * Each keeps a disabled <link> of its own address, which the browser does not fetch: Vite's preload
 * helper looks for a stylesheet <link> before it adds a lazy chunk's CSS, and would otherwise download
 * and apply an inlined stylesheet a second time once the page's chunks load.
 */
export function inlineStylesheets(html: string, readAsset: (href: string) => string) {
  return html.replace(
    /<link rel="stylesheet" crossorigin href="\/([^"]+)">/g,
    (_tag, href: string) => `<style>${readAsset(href)}</style><link rel="stylesheet" crossorigin href="/${href}" disabled>`,
  );
}

/**
 * Vite plugin: after the client build, builds src/entry-server.tsx for Node,
 * renders every public page (and the not-found page) with React's server
 * renderer into dist/, and keeps the empty template as the app shell of the
 * client-rendered routes. The server (server/http/client-files.ts) serves them.
 */
export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'poshan:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    config: () => ({ build: { manifest: true } }),
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        // A directory of this build's own (two builds side by side must not share it), inside
        // node_modules so the server bundle resolves React and the other packages it leaves external.
        mkdirSync(path.resolve(config.root, 'node_modules/.cache'), { recursive: true });
        const serverOut = mkdtempSync(path.resolve(config.root, 'node_modules/.cache/poshan-prerender-'));
        await build({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          build: {
            ssr: 'src/entry-server.tsx',
            outDir: serverOut,
            emptyOutDir: true,
            copyPublicDir: false,
            manifest: false,
            rollupOptions: { output: { entryFileNames: 'entry-server.mjs' } },
          },
        });
        const { renderPage } = (await import(`${pathToFileURL(path.join(serverOut, 'entry-server.mjs')).href}?t=${Date.now()}`)) as {
          renderPage(url: string): Promise<{ html: string; head: Head }>;
        };

        const manifestFile = path.join(outDir, '.vite/manifest.json');
        const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
        rmSync(path.join(outDir, '.vite'), { recursive: true, force: true });
        const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
        const font = textFontOf(manifest);
        // The app shell (signed-in areas) renders in the browser: it loads its scripts as Vite wrote them.
        writeFileSync(path.join(outDir, APP_SHELL_FILE), template.replace('</title>', `</title>\n    ${fontPreload(font)}`));

        const pages = [
          ...PRERENDERED_PATHS.map((p) => ({ path: p as string | null, key: p as keyof typeof PAGE_MODULES })),
          { path: null, key: '404' as const },
        ];
        for (const page of pages) {
          const { html: markup, head } = await renderPage(page.path ?? NOT_FOUND_URL);
          // Before its JavaScript runs, a form without method="post" submits its fields in the address.
          const unsafe = formsThatCouldGet(markup);
          if (unsafe.length) throw new Error(`prerender: ${page.path ?? '404'} has a form that is not method="post": ${unsafe.join(' ')}`);
          const layout = chunksOf(manifest, LAYOUT_MODULE);
          const pageModule = PAGE_MODULES[page.key];
          const own = pageModule ? chunksOf(manifest, pageModule) : { js: [], css: [] };
          const stages = (STAGES_BEFORE[page.key] ?? []).flatMap((key) => chunksOf(manifest, key).js);
          const js = [...new Set([...layout.js, ...stages, ...own.js])];
          const css = [...new Set([...layout.css, ...own.css])];
          const file = path.join(outDir, page.path === null ? NOT_FOUND_FILE : prerenderedFile(page.path));
          if (!existsSync(path.dirname(file))) mkdirSync(path.dirname(file), { recursive: true });
          const html = pageHtml(template, { path: page.path, markup, head, js, css, font });
          writeFileSync(
            file,
            inlineStylesheets(html, (href) => readFileSync(path.join(outDir, href), 'utf8')),
          );
        }
        rmSync(serverOut, { recursive: true, force: true });
        this.info?.(`prerendered ${pages.length} pages`);
      },
    },
  };
}
