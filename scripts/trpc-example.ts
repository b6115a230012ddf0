/**
 * Calling Poshan's typed procedures from a Node script: sign in over HTTP,
 * make typed queries with the bearer token, and follow the live feed over a
 * WebSocket subscription. Every input and output is typed from AppRouter, so
 * a wrong field name is a compile error, not a 400 at run time.
 *
 *   POSHAN_EMAIL=asha@example.com POSHAN_PASSWORD='…' npx tsx scripts/trpc-example.ts
 *
 * Environment: POSHAN_URL (default http://127.0.0.1:3000), POSHAN_EMAIL,
 * POSHAN_PASSWORD, POSHAN_ROLE (2 client, the default; 1 dietitian),
 * POSHAN_WATCH_SECONDS (how long to follow the feed, default 30).
 */
import { createTRPCClient, createWSClient, httpBatchLink, httpLink, splitLink, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';
import type { AppRouter } from '../server/trpc/root.js';

const baseUrl = (process.env.POSHAN_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const email = process.env.POSHAN_EMAIL;
const password = process.env.POSHAN_PASSWORD;
const role = process.env.POSHAN_ROLE === '1' ? 1 : 2;
const watchSeconds = Number(process.env.POSHAN_WATCH_SECONDS ?? 30);

if (!email || !password) {
  console.warn('Set POSHAN_EMAIL and POSHAN_PASSWORD (create an account with npm run user:create).');
  process.exit(2);
}

// 1. Sign in over HTTP. superjson must match the server's transformer, on every terminating link.
const anonymous = createTRPCClient<AppRouter>({
  links: [httpLink({ url: `${baseUrl}/trpc`, transformer: superjson })], // auth.* calls are never batched
});
const session = await anonymous.auth.signIn.mutate({ email, password, role });
const { token, fullName } = session.data;
console.log(`${session.message} — signed in as ${fullName}`);

// 2. One client for everything after sign-in: subscriptions over a WebSocket
//    (authenticated by connectionParams), every other call over HTTP with the bearer header.
//    Node 20 has no global WebSocket, so the `ws` package is passed in.
const socket = createWSClient({
  url: `${baseUrl.replace(/^http/, 'ws')}/trpc`,
  WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
  connectionParams: { token },
});
const client = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: wsLink({ client: socket, transformer: superjson }),
      false: splitLink({
        condition: (op) => op.path.startsWith('auth.'),
        true: httpLink({ url: `${baseUrl}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${token}` } }),
        false: httpBatchLink({
          url: `${baseUrl}/trpc`,
          transformer: superjson,
          maxItems: 10,
          headers: { authorization: `Bearer ${token}` },
        }),
      }),
    }),
  ],
});

const me = await client.auth.checkAuthorization.query();
console.log(`Session is valid for user ${me.data.id} (role ${me.data.role})`);

const feed = await client.feed.list.query({ limit: 5 });
for (const post of feed.items) {
  console.log(`#${post.id} ${post.createdAt.slice(0, 10)} ${post.likeCount} like(s): ${post.desc.replace(/\s+/g, ' ').slice(0, 70)}`);
}

// 3. The live feed: tracked events; pass the last id back as lastEventId to resume after a restart.
console.log(`Following the feed for ${watchSeconds} s…`);
const subscription = client.feed.events.subscribe(
  {},
  {
    onData: ({ id, data: event }) => {
      if (event.kind === 'like.changed') console.log(`[${id}] post ${event.postId} now has ${event.likeCount} like(s)`);
      else if (event.kind === 'post.created' || event.kind === 'post.updated')
        console.log(`[${id}] ${event.kind}: ${event.post.desc.replace(/\s+/g, ' ').slice(0, 70)}`);
      else if (event.kind === 'post.deleted') console.log(`[${id}] post ${event.postId} was removed`);
      else console.log(`[${id}] ${event.kind}`);
    },
    onError: (err) => console.warn(`Subscription error: ${err.message}`),
  },
);

setTimeout(async () => {
  subscription.unsubscribe();
  await socket.close();
  await client.auth.signOut.mutate({ refreshToken: session.data.refreshToken });
  console.log('Signed out.');
}, watchSeconds * 1000);
