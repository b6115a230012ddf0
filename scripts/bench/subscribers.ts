/**
 * Many live-feed subscribers in one process, and the latency of one event
 * reaching each of them. The same client measures the app (tRPC over
 * WebSocket, the protocol the browser speaks) and the bare fan-out server.
 */
import WebSocket from 'ws';

export type Target = { kind: 'app'; wsUrl: string; tokens: string[] } | { kind: 'bare'; wsUrl: string };

export type Subscribers = {
  size: number;
  /** Resolves with each socket's latency (ms) from `t0`, or null for a socket the event never reached within `timeoutMs`. */
  awaitEvent(t0: number, timeoutMs: number): Promise<(number | null)[]>;
  close(): Promise<void>;
};

const OPEN_IN_FLIGHT = 100;

function subscribeMessage(): string {
  return JSON.stringify({ id: 1, method: 'subscription', params: { path: 'feed.events', input: { json: {} } } });
}

export async function openSubscribers(target: Target, count: number, timeoutMs = 120_000): Promise<Subscribers> {
  const sockets: WebSocket[] = [];
  /** Arrival time of the current round's event, per socket. */
  const arrived = new Float64Array(count).fill(Number.NaN);
  let pending = 0;
  let onAllArrived: (() => void) | null = null;

  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const url = target.kind === 'app' ? `${target.wsUrl}?connectionParams=1` : target.wsUrl;
      const ws = new WebSocket(url, { perMessageDeflate: false });
      sockets[i] = ws;
      let ready = false;
      const timer = setTimeout(() => reject(new Error(`subscriber ${i} was not ready within ${timeoutMs} ms`)), timeoutMs);
      ws.on('open', () => {
        if (target.kind === 'app') {
          ws.send(JSON.stringify({ method: 'connectionParams', data: { token: target.tokens[i % target.tokens.length] } }));
          ws.send(subscribeMessage());
        }
      });
      ws.on('message', (data: Buffer) => {
        // tRPC's keep-alive: answer its PING or the server drops the socket as dead.
        if (data.length === 4 && data.toString() === 'PING') {
          ws.send('PONG');
          return;
        }
        if (!ready) {
          if (target.kind === 'bare' ? data.toString() === 'ready' : data.includes('"kind":"ready"')) {
            ready = true;
            clearTimeout(timer);
            resolve();
          } else if (data.includes('"error"')) {
            clearTimeout(timer);
            reject(new Error(`subscriber ${i} was refused: ${data.toString().slice(0, 300)}`));
          }
          return;
        }
        if (data.includes('like.changed') && Number.isNaN(arrived[i]!)) {
          arrived[i] = performance.now();
          pending -= 1;
          if (pending === 0) onAllArrived?.();
        }
      });
      ws.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });

  let next = 0;
  const opener = async () => {
    while (next < count) {
      const i = next++;
      await openOne(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_IN_FLIGHT, count) }, opener));

  return {
    size: count,
    async awaitEvent(t0, waitMs) {
      arrived.fill(Number.NaN);
      pending = count;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        onAllArrived = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      onAllArrived = null;
      return Array.from(arrived, (t) => (Number.isNaN(t) ? null : t - t0));
    },
    async close() {
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once('close', () => resolve());
              ws.terminate();
            }),
        ),
      );
    },
  };
}
