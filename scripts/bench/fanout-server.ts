/**
 * The bare fan-out server: `ws` on node:http, no database, no tRPC. POST
 * /broadcast sends one pre-serialized frame to every open socket. The same
 * client measures it and the app, so the gap is the app's own work per event.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ noServer: true });
let sequence = 0;
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/broadcast') {
    sequence += 1;
    const frame = Buffer.from(JSON.stringify({ kind: 'like.changed', eventId: sequence, postId: 1, likeCount: sequence }));
    for (const socket of wss.clients) socket.send(frame, { binary: false });
    res.writeHead(200).end(String(wss.clients.size));
    return;
  }
  res.writeHead(404).end();
});
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.send('ready');
  });
});
wss.on('connection', () => {});
server.listen(0, '127.0.0.1', () => process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port }));
process.on('message', (m: { type: string; id: number }) => {
  if (m.type === 'memory') {
    globalThis.gc?.();
    process.send?.({ type: 'memory', id: m.id, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
  }
});
process.on('disconnect', () => process.exit(0));
