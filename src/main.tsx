import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { trpcClient } from './lib/trpc';
import './styles.css';

// Spec 7: track-visit fires once per app load; errors are only logged.
trpcClient.visit.track.mutate().catch((err: unknown) => console.warn('visit tracking failed', err));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
