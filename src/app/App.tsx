import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Toaster } from 'sonner';
import { queryClient, TRPCProvider, trpcClient } from '../lib/trpc';
import { AppRoutes } from './routes';
import { LoadingOverlayProvider } from '../components/LoadingOverlay';

export function App() {
  useEffect(() => {
    // Spec 7: fired once on app load; errors are only logged.
    trpcClient.visit.track.mutate().catch((err: unknown) => console.warn('visit tracking failed', err));
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <LoadingOverlayProvider>
          <AppRoutes />
        </LoadingOverlayProvider>
        {/* Spec 8: top-right, auto-close 5000 ms, light theme. */}
        <Toaster position="top-right" duration={5000} theme="light" richColors closeButton />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
