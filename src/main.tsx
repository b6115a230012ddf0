import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app/App';
import { trpcClient } from './lib/trpc';
import './styles.css';

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
if (prerendered) hydrateRoot(root, app);
else createRoot(root).render(app);

// Spec 7: track-visit fires once per app load; errors are only logged. It waits until the page
// has loaded and the browser is idle, so it never competes with what the visitor sees first.
const trackVisit = () => void trpcClient.visit.track.mutate().catch((err: unknown) => console.warn('visit tracking failed', err));
const whenIdle = () =>
  'requestIdleCallback' in window ? window.requestIdleCallback(trackVisit, { timeout: 5000 }) : setTimeout(trackVisit, 1);
if (document.readyState === 'complete') whenIdle();
else window.addEventListener('load', whenIdle, { once: true });
