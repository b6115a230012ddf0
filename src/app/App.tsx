import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient, TRPCProvider, trpcClient } from '../lib/trpc';
import { AppRoutes } from './routes';
import { ConnectionNotice } from '../components/ConnectionNotice';
import { LoadingOverlayProvider } from '../components/LoadingOverlay';
import { AppToaster } from '../components/AppToaster';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <LoadingOverlayProvider>
          <AppRoutes />
        </LoadingOverlayProvider>
        {/* sonner loads with the first toast (lib/toast). */}
        <AppToaster />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
