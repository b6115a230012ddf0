import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../deps.js';
import { incomingMeta } from '../http/request-meta.js';
import { echoRequestIds } from './request-ids.js';
import { createContextInner } from '../trpc/context.js';
import { closeSocketsGracefully, createWsAdmission } from './ws-admission.js';
import { appRouter } from '../trpc/root.js';
import { guestSocketUntil } from '../calls/guest-link.js';
import { frameEncoder } from './frames.js';
import { createSocketSessions } from './socket-sessions.js';

/**
 * tRPC over WebSocket on the same http server, path /trpc. The token comes
 * in connectionParams; the socket's session is checked on every call and
 * the socket is closed when that session ends (socket-sessions.ts), so the
 * client reopens its socket on sign-in, sign-out and renewal.
 */
export function attachTrpcWebSocket(server: Server, deps: AppDeps) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const requestIds = echoRequestIds(wss);
  const sockets = createSocketSessions(deps.sessions, {
    unauthenticatedCloseMs: deps.config.wsUnauthenticatedCloseMs,
    maxSubscriptions: deps.config.wsMaxSubscriptions,
  });
  const handler = applyWSSHandler({
    wss,
    router: appRouter,
    experimental_encoder: frameEncoder,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    createContext: ({ req, res, info }) => {
      const token = typeof info.connectionParams?.token === 'string' && info.connectionParams.token ? info.connectionParams.token : null;
      // A visitor's call page has no session: a well-signed guest link keeps its socket open for that call's guest procedures.
      const guestUntil = token ? null : guestSocketUntil(deps.secret, info.connectionParams?.callGuest, Date.now());
      return createContextInner({
        deps,
        // The upgrade's socket is the request's (node:http): the channel writes frames made once straight to it.
        socket: sockets.attach(res, token, req.socket, guestUntil),
        meta: {
          ...incomingMeta(req, deps.config.trustProxy),
          requestId: requestIds.of(req),
          transport: 'ws',
        },
      });
    },
    onError: ({ error, path, ctx }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        deps.logger.error(`tRPC ws ${path ?? '?'} failed`, { reqId: ctx?.meta.requestId, error: String(error.cause ?? error) });
    },
  });

  const admission = createWsAdmission(deps.config.wsMaxPerIp);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== '/trpc') {
      socket.destroy();
      return;
    }
    const { ip } = incomingMeta(req, deps.config.trustProxy);
    if (!admission.admit(ip, socket)) return;
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  return {
    wss,
    sockets,
    /** Tell clients to reconnect elsewhere, then close every socket. */
    async close() {
      server.off('upgrade', onUpgrade);
      handler.broadcastReconnectNotification();
      // Sessions stay watched until the sockets are gone: a live event sent while they close still finds its session live.
      await closeSocketsGracefully(wss.clients);
      sockets.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
