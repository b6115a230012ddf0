import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * At most `maxPerIp` open WebSockets per client address (the address from
 * server/http/request-meta.ts, so TRUST_PROXY is honoured). One more upgrade
 * from that address is answered 429 and its socket closed before any
 * WebSocket work is done.
 */
export function createWsAdmission(maxPerIp: number) {
  const open = new Map<string, number>();
  return {
    /**
     * True if the upgrade may go on (the socket counts until it closes);
     * otherwise it has been refused on the raw socket.
     */
    admit(ip: string, socket: Duplex): boolean {
      const count = open.get(ip) ?? 0;
      if (count >= maxPerIp) {
        const message = `Too many open connections from your address (at most ${maxPerIp}). Close some tabs and try again.`;
        socket.end(
          `HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
        );
        return false;
      }
      open.set(ip, count + 1);
      socket.once('close', () => {
        const left = (open.get(ip) ?? 1) - 1;
        if (left > 0) open.set(ip, left);
        else open.delete(ip);
      });
      return true;
    },
    openFrom: (ip: string) => open.get(ip) ?? 0,
  };
}

export type WsAdmission = ReturnType<typeof createWsAdmission>;

/** Says goodbye to every socket (close code 1001) and waits up to `waitMs` for them to go; the rest are cut. */
export async function closeSocketsGracefully(clients: Iterable<WebSocket>, waitMs = 2000) {
  const closing = [...clients].map(
    (client) =>
      new Promise<void>((resolve) => {
        if (client.readyState === client.CLOSED) return resolve();
        client.once('close', () => resolve());
        client.close(1001, 'Server shutting down');
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(closing), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  for (const client of clients) if (client.readyState !== client.CLOSED) client.terminate();
}
