/**
 * The least server that gives the embedded database's feed answers: node:http
 * and the app's own answers, kept in memory per bearer token (the bench reads
 * them from the app first). A read is a token lookup and one write of the
 * same bytes; /healthz answers what the app's does. Its read against its own
 * /healthz is the most this machine allows for an answer of that size, the
 * ceiling for the app's ratio on the embedded database.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const answers = new Map<string, Buffer>();
const HEALTHZ = Buffer.from(JSON.stringify({ status: 200, message: 'ok' }));
const EXPIRED = Buffer.from(JSON.stringify({ status: 401, message: 'Your session has expired. Please sign in again.' }));
const NOT_FOUND = Buffer.from(JSON.stringify({ status: 404, message: 'no such path' }));

function send(res: ServerResponse, status: number, body: Buffer) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.byteLength });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.url === '/healthz') return send(res, 200, HEALTHZ);
  if (req.method !== 'GET' || !req.url?.startsWith('/feeds')) return send(res, 404, NOT_FOUND);
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const answer = token === undefined ? undefined : answers.get(token);
  return answer ? send(res, 200, answer) : send(res, 401, EXPIRED);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});
process.on('message', (m: { type: string; id: number; answers?: Record<string, string> }) => {
  if (m.type === 'answers' && m.answers) {
    for (const [token, text] of Object.entries(m.answers)) answers.set(token, Buffer.from(text));
    process.send?.({ type: 'answers', id: m.id, kept: answers.size });
  }
});
process.on('disconnect', () => process.exit(0));
