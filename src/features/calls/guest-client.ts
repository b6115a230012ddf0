import { createTRPCClient, createWSClient, httpLink, splitLink, wsLink } from '@trpc/client';
import superjson from 'superjson';
import type { z } from 'zod';
import type { guestPassInput } from '../../../server/calls/schema';
import type { AppRouter } from '../../../server/trpc/root';

export type GuestPass = z.infer<typeof guestPassInput>;

/** The guest link's parts from the page's address (`/call/guest/<id>?v=&exp=&sig=`); null when any is missing. */
export function guestPassFrom(id: string | undefined, search: string): GuestPass | null {
  const q = new URLSearchParams(search);
  const [v, exp, sig] = [q.get('v'), q.get('exp'), q.get('sig')];
  if (!id || !/^\d{1,9}$/.test(id) || !v || !exp || !sig) return null;
  return { appointmentId: Number(id), v, exp, sig };
}

/**
 * A visitor's own connection for her call: no session and no token, her
 * socket opened with the guest link (the server lets such a socket call the
 * guest procedures of that call only). Separate from the app's client, so
 * nothing signed-in ever travels with it.
 */
export function createGuestClient(pass: GuestPass) {
  const socket = createWSClient({
    url: () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/trpc`,
    lazy: { enabled: true, closeMs: 10_000 },
    connectionParams: () => ({ token: '', callGuest: `${pass.appointmentId}.${pass.v}.${pass.exp}.${pass.sig}` }),
    retryDelayMs: (attempt) => Math.min(10_000, 500 * 2 ** attempt) + Math.floor(Math.random() * 300),
  });
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: socket, transformer: superjson }),
        false: httpLink({ url: '/trpc', transformer: superjson }),
      }),
    ],
  });
  return { client, close: () => socket.close() };
}
