import type { Server } from 'node:http';

/**
 * The server's life after SIGTERM: draining (readiness answers 503, every
 * answer says `Connection: close`) while in-flight requests are counted down.
 */
export function createLifecycle() {
  let draining = false;
  let inFlight = 0;
  const whenIdle = new Set<() => void>();

  const settle = () => {
    if (inFlight > 0) return;
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
    /** Counts the server's requests from arrival until their answer has gone (or the connection died). */
    track(server: Server) {
      server.on('request', (_req, res) => {
        inFlight += 1;
        if (draining) res.setHeader('Connection', 'close');
        res.once('close', () => {
          inFlight -= 1;
          settle();
        });
      });
    },
    /** Resolves true once nothing is in flight, or false when `timeoutMs` ran out first. */
    idle(timeoutMs: number): Promise<boolean> {
      if (inFlight === 0) return Promise.resolve(true);
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

export type Lifecycle = ReturnType<typeof createLifecycle>;
