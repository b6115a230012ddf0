import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/build/precompress.js';
import { prerender } from './scripts/build/prerender.js';
import { pwa } from './scripts/build/pwa.js';

const api = process.env.POSHAN_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  // The service worker and the web app manifest (pwa.ts) come after the prerendered pages exist, and before precompressing.
  plugins: [react(), tailwindcss(), prerender(), pwa(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    proxy: {
      '/api': api,
      '/trpc': { target: api, ws: true },
      '/healthz': api,
    },
  },
});
