import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app/App';
import './styles/fonts.css';
import './styles.css';

// Zod 4 probes `new Function` when it builds its first object schema (to compile fast parsers). The
// CSP allows no eval, so on every page with a form that probe was a reported violation (Lighthouse
// best practices 96). Before any form chunk loads: parse without compiling. Zod reads its settings
// from this global, so the entry need not import zod itself (forms load it when they open).
const zodSettings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodSettings.__zod_globalConfig = { ...zodSettings.__zod_globalConfig, jitless: true };

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// Public pages arrive prerendered (scripts/build/prerender.ts): hydrate them. The app shell of
// the signed-in areas (and the dev server's index.html) has an empty root: render into it.
const prerendered = root.firstElementChild !== null;
// Pages were prerendered without a query string: hydrate as rendered (ssrSearch), then React
// re-renders with the real one (e.g. /pricing-plans?type=LP) instead of reporting a mismatch.
const app = (
  <StrictMode>
    <Router ssrSearch={prerendered ? '' : undefined}>
      <App />
    </Router>
  </StrictMode>
);
if (prerendered) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);

// Track-visit fires once per app load; errors are only logged. It waits until the page
// has loaded and the browser is idle, so it never competes with what the visitor sees first.
// A plain POST (what tRPC's client sends for a mutation without input), so public pages need
// not load the tRPC client for it.
const trackVisit = () =>
  void fetch('/trpc/visit.track', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    // The answer is read to its end: an unread body keeps the request open in the browser.
    .then(async (res) => {
      await res.text();
      if (!res.ok) console.warn('visit tracking failed', res.status);
    })
    .catch((err: unknown) => console.warn('visit tracking failed', err));
const whenIdle = () =>
  'requestIdleCallback' in window ? window.requestIdleCallback(trackVisit, { timeout: 5000 }) : setTimeout(trackVisit, 1);
if (document.readyState === 'complete') whenIdle();
else window.addEventListener('load', whenIdle, { once: true });

// The browser offers to install the app once per page, possibly before the dashboard's code has loaded:
// keep the offer for its "Install Poshan" (src/lib/pwa.ts) instead of the browser's own banner.
window.addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault();
  window.__poshanInstallOffer = event;
});
