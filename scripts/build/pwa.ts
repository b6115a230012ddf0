import type { Plugin, ResolvedConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { BRAND } from '../../server/brand.js';
import { APP_SHELL_FILE } from '../../server/http/site-pages.js';

/** Where the installed app opens, and the address the service worker answers dashboard navigations with (the app shell). */
export const PWA_START_URL = '/dashboard';

const icon = (file: string, size: number, purpose: 'any' | 'maskable') => ({
  src: `/icons/${file}`,
  sizes: `${size}x${size}`,
  type: 'image/png',
  purpose,
});

/**
 * The worker's own Vite build, as the app's build asks: vite-plugin-pwa's `inlineDynamicImports: true`
 * under Rolldown's name (`codeSplitting: false`: Vite 8 warned on every build), and the app build's log
 * level (`npm start` builds with `--logLevel warn`, and the worker's build printed its progress anyway).
 */
function workerBuildLikeTheApp(): { outer: Plugin; worker: Plugin } {
  let logLevel: ResolvedConfig['logLevel'] | undefined;
  return {
    outer: {
      name: 'poshan:sw-log-level',
      configResolved(config) {
        logLevel = config.logLevel;
      },
    },
    worker: {
      name: 'poshan:sw-one-file',
      config: () => (logLevel ? { logLevel } : {}),
      outputOptions(output) {
        const { inlineDynamicImports, ...rest } = output as typeof output & { inlineDynamicImports?: boolean };
        return inlineDynamicImports === undefined ? output : { ...rest, codeSplitting: !inlineDynamicImports };
      },
    },
  };
}

/**
 * The installable app (decision 116): the web app manifest, written from server/brand.ts at build
 * time, and the service worker src/sw/sw.ts, built by Vite (vite-plugin-pwa, injectManifest) with
 * the list of files to precache: the app shell (precached under its address /dashboard, which the
 * server answers with it), every script and stylesheet chunk of the build, the fonts and the icons.
 * The worker is registered by the signed-in areas after load (src/lib/pwa.ts), never by public pages.
 */
export function pwa(): Plugin[] {
  const workerBuild = workerBuildLikeTheApp();
  const plugins = VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    injectRegister: false,
    registerType: 'prompt',
    includeManifestIcons: false,
    // After the prerender step has written the app shell (both run when the bundle closes).
    integration: { closeBundleOrder: 'post' },
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      id: PWA_START_URL,
      name: BRAND.name,
      short_name: BRAND.name,
      description: BRAND.tagline,
      lang: 'en-IN',
      start_url: PWA_START_URL,
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      theme_color: BRAND.themeColor,
      background_color: BRAND.backgroundColor,
      categories: ['health', 'lifestyle', 'medical'],
      icons: [
        icon('icon-192.png', 192, 'any'),
        icon('icon-512.png', 512, 'any'),
        icon('maskable-192.png', 192, 'maskable'),
        icon('maskable-512.png', 512, 'maskable'),
      ],
      shortcuts: [
        { name: 'Messages', short_name: 'Messages', url: '/dashboard/messages', icons: [icon('icon-192.png', 192, 'any')] },
        { name: 'Meal Journal', short_name: 'Journal', url: '/dashboard/journal', icons: [icon('icon-192.png', 192, 'any')] },
        { name: 'Update Weight', short_name: 'Weight', url: '/dashboard/update-weight', icons: [icon('icon-192.png', 192, 'any')] },
        { name: 'Check-in', short_name: 'Check-in', url: '/dashboard/check-in', icons: [icon('icon-192.png', 192, 'any')] },
      ],
    },
    injectManifest: {
      buildPlugins: { vite: [workerBuild.worker] },
      globPatterns: ['assets/**/*.{js,css,woff2}', APP_SHELL_FILE, 'icons/*.png', 'favicon.svg'],
      // Not for a client's phone: the dietitians' console, and the emoji font's many subsets (the system's emoji stand in offline).
      globIgnores: ['assets/AdminArea-*', 'assets/noto-emoji-*'],
      // Hashed names need no revision of their own.
      dontCacheBustURLsMatching: /^assets\//,
      manifestTransforms: [
        async (entries) => ({
          manifest: entries.map((entry) => (entry.url === APP_SHELL_FILE ? { ...entry, url: PWA_START_URL } : entry)),
          warnings: [],
        }),
      ],
    },
  }) as Plugin[];
  return [workerBuild.outer, ...plugins];
}
