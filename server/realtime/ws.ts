import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../deps.js';
import { createContextFromToken } from '../trpc/context.js';
import { appRouter } from '../trpc/root.js';

/**
 * tRPC over WebSocket on the same http server, path /trpc. The context is
 * made once per connection from the token in connectionParams, so the client
 * reopens its socket on sign-in and sign-out.
 */
export function attachTrpcWebSocket(server: Server, deps: AppDeps) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const handler = applyWSSHandler({
    wss,
    router: appRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    createContext: async ({ req, info }) => {
      const token = typeof info.connectionParams?.token === 'string' ? info.connectionParams.token : null;
      return createContextFromToken(deps, token, {
        ip: req.socket.remoteAddress ?? 'unknown',
        userAgent: req.headers['user-agent'] ?? '',
      });
    },
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        deps.logger.error(`tRPC ws ${path ?? '?'} failed`, { error: String(error.cause ?? error) });
    },
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== '/trpc') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  return {
    wss,
    /** Tell clients to reconnect elsewhere, then close every socket. */
    async close() {
      server.off('upgrade', onUpgrade);
      handler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
