import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { queryClient, TRPCProvider, trpcClient } from '../lib/trpc';
import { AppRoutes } from './routes';
import { ConnectionNotice } from '../components/ConnectionNotice';
import { LoadingOverlayProvider } from '../components/LoadingOverlay';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <LoadingOverlayProvider>
          <AppRoutes />
        </LoadingOverlayProvider>
        {/* Top-right, auto-close 5000 ms, light theme. */}
        <ConnectionNotice />
        {/* Below the 64 px top bars, so a toast never covers the name and Sign out (issue 12). */}
        <Toaster
          position="top-right"
          duration={5000}
          theme="light"
          richColors
          closeButton
          offset={{ top: 76 }}
          mobileOffset={{ top: 72 }}
        />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
