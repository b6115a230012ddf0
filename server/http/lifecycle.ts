import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How long a connection accepted while draining may take to send its first
 * request: a client whose connection was queued at SIGTERM sends at once, and
 * a browser's speculative connection that never sends must not hold the
 * shutdown for the whole grace period.
 */
export const FIRST_REQUEST_WAIT_MS = 1_000;
/** Under a flood of new connections, how long the listener keeps accepting before it closes anyway. */
export const ACCEPT_QUEUE_MAX_MS = 2_000;

/**
 * The server's life after SIGTERM: draining (readiness answers 503, every
 * answer says `Connection: close`) while in-flight requests, and connections
 * that have not sent their first request yet, are counted down.
 */
export function createLifecycle() {
  let draining = false;
  let inFlight = 0;
  /** Accepted connections that have not sent a request yet. */
  const unserved = new Set<Socket>();
  /** Connections kept alive between requests. */
  const keptAlive = new Set<Socket>();
  let unservedDeadline = Number.POSITIVE_INFINITY;
  const whenIdle = new Set<() => void>();

  const isIdle = () => inFlight === 0 && (unserved.size === 0 || performance.now() >= unservedDeadline);
  const settle = () => {
    if (!isIdle()) return;
    for (const resolve of whenIdle) resolve();
    whenIdle.clear();
  };

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight;
    },
    startDraining() {
      draining = true;
    },
    /** Counts the server's requests from arrival until their answer has gone (or the connection died), and its connections. */
    track(server: Server) {
      server.on('connection', (socket: Socket) => {
        unserved.add(socket);
        socket.once('close', () => {
          unserved.delete(socket);
          keptAlive.delete(socket);
          settle();
        });
      });
      server.on('upgrade', (req) => unserved.delete(req.socket));
      server.on('request', (req, res) => {
        const { socket } = req;
        unserved.delete(socket);
        keptAlive.delete(socket);
        inFlight += 1;
        if (draining) res.setHeader('Connection', 'close');
        res.once('close', () => {
          inFlight -= 1;
          if (!socket.destroyed) keptAlive.add(socket);
          settle();
        });
      });
    },
    /**
     * Stops accepting connections once the kernel's accept queue is empty, and
     * closes the connections idle between requests. Closing a listener resets
     * every connection still queued in the kernel, which the client has already
     * sent its request on: so the listener stays open, serving, until a whole
     * turn of the event loop (which accepts everything queued) accepted none,
     * or ACCEPT_QUEUE_MAX_MS of a flood ran out. A connection that comes later is refused,
     * which a client or proxy can safely retry elsewhere. Connections accepted
     * but without a request yet are not closed: they get FIRST_REQUEST_WAIT_MS
     * to send it (answered with `Connection: close`).
     */
    async stopAccepting(server: Server): Promise<void> {
      await acceptQueueEmpty(server, ACCEPT_QUEUE_MAX_MS);
      // http.Server's own close() would also close every connection without a request in progress, the unserved ones too.
      NetServer.prototype.close.call(server);
      unservedDeadline = performance.now() + FIRST_REQUEST_WAIT_MS;
      setTimeout(settle, FIRST_REQUEST_WAIT_MS).unref();
      for (const socket of keptAlive) socket.destroy();
      keptAlive.clear();
    },
    /** Resolves true once nothing is in flight (and no connection waits to send its first request), or false when `timeoutMs` ran out first. */
    idle(timeoutMs: number): Promise<boolean> {
      if (isIdle()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          whenIdle.delete(done);
          resolve(false);
        }, timeoutMs);
        whenIdle.add(done);
      });
    },
  };
}

/**
 * Resolves in the event loop's check phase right after a poll phase that
 * accepted no connection (libuv accepts until the queue is empty on each
 * poll), so a close() in the same turn finds the queue empty; or after `maxMs`.
 */
function acceptQueueEmpty(server: Server, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let accepted = 1; // at least one whole poll phase, whatever phase close() was called in
    const count = () => {
      accepted += 1;
    };
    server.on('connection', count);
    const deadline = performance.now() + maxMs;
    const check = () => {
      if (accepted === 0 || performance.now() >= deadline) {
        server.off('connection', count);
        resolve();
        return;
      }
      accepted = 0;
      setImmediate(check);
    };
    setImmediate(check);
  });
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
