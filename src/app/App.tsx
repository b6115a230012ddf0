import { AppToaster } from '../components/AppToaster';
import { ConnectionNotice } from '../components/ConnectionNotice';
import { LoadingOverlayProvider } from '../components/LoadingOverlay';
import { AppRoutes } from './routes';

/**
 * The shell every page shares. React Query and tRPC are not here: the screens
 * that call the API bring them with their chunk (lib/lazy-with-data), so the
 * home page hydrates without them.
 */
export function App() {
  return (
    <>
      <LoadingOverlayProvider>
        <AppRoutes />
      </LoadingOverlayProvider>
      <ConnectionNotice />
      {/* sonner loads with the first toast (lib/toast): top-right, auto-close 5000 ms, light theme. */}
      <AppToaster />
    </>
  );
}
