import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, createWSClient, httpBatchLink, httpLink, splitLink, wsLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import { MAX_BATCH_SIZE, isAuthCall } from '../../server/trpc/batch-rules';
import type { AppRouter } from '../../server/trpc/root';
import { sessionRefreshLink, signingOutLink } from './auth-client';
import { connection } from './connection';
import { session } from './session';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Back from an outage: refetch what the page shows.
connection.onRecovered(() => void queryClient.invalidateQueries());

const wsUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/trpc`;

/**
 * One socket for subscriptions; lazy so public pages never open it. The token
 * goes in connectionParams; the socket is reopened when the session changes.
 */
export const wsClient = createWSClient({
  url: wsUrl,
  lazy: { enabled: true, closeMs: 10_000 },
  connectionParams: () => ({ token: session.token() ?? '' }),
  retryDelayMs: (attempt) => Math.min(10_000, 500 * 2 ** attempt) + Math.floor(Math.random() * 300),
});

let lastToken = session.token();
session.subscribe(() => {
  const token = session.token();
  if (token !== lastToken) {
    lastToken = token;
    void wsClient.close().catch(() => {});
  }
});

const authHeader = () => {
  const token = session.token();
  return token ? { authorization: `Bearer ${token}` } : {};
};

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    // While signing out, nothing else is sent.
    signingOutLink(),
    // An expired session token is renewed once with the refresh token, else the user is signed out.
    sessionRefreshLink(),
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: wsLink({ client: wsClient, transformer: superjson }),
      // The server refuses auth calls inside a batch, and batches over its cap.
      false: splitLink({
        condition: (op) => isAuthCall(op.path),
        true: httpLink({ url: '/trpc', transformer: superjson, headers: authHeader }),
        false: httpBatchLink({ url: '/trpc', transformer: superjson, maxItems: MAX_BATCH_SIZE, headers: authHeader }),
      }),
    }),
  ],
});
