/**
 * Many live-feed subscribers in one process, and the latency of one event
 * reaching each of them. The same client measures the app (tRPC over
 * WebSocket, the protocol the browser speaks) and the bare fan-out server.
 */
import WebSocket from 'ws';

/**
 * The app: a tRPC subscription per socket (the feed's, unless `subscription` names another per socket).
 * The bare server: `wsUrl` (or one per socket), which answers 'ready' once the socket is registered.
 * `event` tells the awaited event from other frames (default: a like).
 */
export type Target = (
  | { kind: 'app'; wsUrl: string; tokens: string[]; subscription?: (i: number) => { path: string; input: unknown } }
  | { kind: 'bare'; wsUrl: string | ((i: number) => string) }
) & { event?: (data: Buffer) => boolean };

export type Subscribers = {
  size: number;
  /** Subscriptions refused with 503 while opening and opened on a later attempt. */
  retried: number;
  /** Resolves with each socket's latency (ms) from `t0`, or null for a socket the event never reached within `timeoutMs`. */
  awaitEvent(t0: number, timeoutMs: number): Promise<(number | null)[]>;
  /** Resolves with the arrival time (performance.now()) of the next event at each socket of `expected`, or null for one it never reached. */
  awaitArrivals(expected: readonly number[], timeoutMs: number): Promise<(number | null)[]>;
  close(): Promise<void>;
};

const OPEN_IN_FLIGHT = 100;
const OPEN_ATTEMPTS = 5;

function subscribeMessage(subscription: { path: string; input: unknown }): string {
  return JSON.stringify({ id: 1, method: 'subscription', params: { path: subscription.path, input: { json: subscription.input } } });
}

const FEED = { path: 'feed.events', input: {} };
const isLike = (data: Buffer) => data.includes('like.changed');

export async function openSubscribers(target: Target, count: number, timeoutMs = 120_000): Promise<Subscribers> {
  const sockets: WebSocket[] = [];
  /** Arrival time of the current round's event, per socket awaited (NaN: not yet; -1: not awaited). */
  const arrived = new Float64Array(count).fill(-1);
  const isEvent = target.event ?? isLike;
  let pending = 0;
  let onAllArrived: (() => void) | null = null;

  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const url =
        target.kind === 'app' ? `${target.wsUrl}?connectionParams=1` : typeof target.wsUrl === 'string' ? target.wsUrl : target.wsUrl(i);
      const ws = new WebSocket(url, { perMessageDeflate: false });
      sockets[i] = ws;
      let ready = false;
      const timer = setTimeout(() => reject(new Error(`subscriber ${i} was not ready within ${timeoutMs} ms`)), timeoutMs);
      ws.on('open', () => {
        if (target.kind === 'app') {
          ws.send(JSON.stringify({ method: 'connectionParams', data: { token: target.tokens[i % target.tokens.length] } }));
          ws.send(subscribeMessage(target.subscription?.(i) ?? FEED));
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
            ws.terminate();
            reject(new Error(`subscriber ${i} was refused: ${data.toString().slice(0, 300)}`));
          }
          return;
        }
        if (Number.isNaN(arrived[i]!) && isEvent(data)) {
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

  /** A refusal while the server is briefly overloaded ("briefly unavailable", as its clients would see) is tried again, as they would. */
  const openWithRetries = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await openOne(i);
      } catch (err) {
        if (attempt >= OPEN_ATTEMPTS || !/SERVICE_UNAVAILABLE|briefly unavailable/.test(String(err))) throw err;
        retried += 1;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  };
  let retried = 0;
  let next = 0;
  const opener = async () => {
    while (next < count) {
      const i = next++;
      await openWithRetries(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_IN_FLIGHT, count) }, opener));

  const awaitArrivals = async (expected: readonly number[], waitMs: number) => {
    arrived.fill(-1);
    for (const i of expected) arrived[i] = Number.NaN;
    pending = expected.length;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      onAllArrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    onAllArrived = null;
    return expected.map((i) => (Number.isNaN(arrived[i]!) ? null : arrived[i]!));
  };
  const everySocket = Array.from({ length: count }, (_, i) => i);

  return {
    size: count,
    retried,
    awaitArrivals,
    async awaitEvent(t0, waitMs) {
      return (await awaitArrivals(everySocket, waitMs)).map((t) => (t === null ? null : t - t0));
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
