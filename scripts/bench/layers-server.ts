/**
 * Where a like toggle's server CPU goes, layer by layer (npm run bench --
 * --parts=layers). One process, one set of dependencies, four HTTP servers
 * doing the same toggle, each with one layer fewer than the last:
 *   app      the real server (Hono, its middleware, the REST adapter, tRPC, the service, Kysely)
 *   caller   node:http, then the tRPC caller (context, middleware, zod in and out) and below
 *   service  node:http, then the feed service (turns, Kysely transaction, bus) and below
 *   raw      node:http and pg with named statements: the statements the service sends, nothing else
 * The bench drives them one after another and reads this process's CPU around each.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import * as feed from '../../server/feed/service.js';
import { createContextFromToken } from '../../server/trpc/context.js';
import { startBenchApp } from './bench-app.js';
import { type ToggleRow, toggleStatement } from './statements.js';
import { createCaller } from '../../server/trpc/root.js';

const { handle, deps, server: app } = await startBenchApp();

const bearer = (req: IncomingMessage) => /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
async function jsonBody(req: IncomingMessage): Promise<{ id: number; feedId: number }> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}
function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
function serve(toggle: (req: IncomingMessage) => Promise<unknown>) {
  const server = createServer((req, res) => {
    toggle(req).then(
      (data) => send(res, 200, { status: 200, message: 'ok', data }),
      (err: Error) => send(res, 500, { status: 500, message: err.message }),
    );
  });
  server.keepAliveTimeout = 60_000;
  return new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

const caller = await serve(async (req) => {
  const input = await jsonBody(req);
  const ctx = await createContextFromToken(deps, bearer(req), { ip: '127.0.0.1', userAgent: '', transport: 'http' });
  return createCaller(ctx).feed.toggleLike(input);
});

const service = await serve(async (req) => {
  const input = await jsonBody(req);
  const user = await deps.sessions.resolve(bearer(req) ?? '');
  if (!user) throw new Error('no session');
  return feed.toggleLike(deps, user, input);
});

// The service's statement as it sends it (repo.ts toggleLikeStatement), on a pool of the same size.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const TOGGLE = toggleStatement('layers_toggle');
const raw = await serve(async (req) => {
  const { feedId } = await jsonBody(req);
  const user = await deps.sessions.resolve(bearer(req) ?? '');
  if (!user) throw new Error('no session');
  try {
    for (;;) {
      const r = (await pool.query({ name: TOGGLE.name, text: TOGGLE.text, values: TOGGLE.values(feedId, user.id, Date.now()) }))
        .rows[0] as ToggleRow;
      if (!r.found) throw new Error('no such post');
      if (r.event_id !== null) return { feedId, liked: r.liked, likeCount: r.like_count };
    }
  } finally {
    deps.feedPages.evict();
  }
});

process.send?.({ type: 'listening', port: app.port });
process.on('message', (m: { type: string; id: number }) => {
  if (m.type === 'ports') process.send?.({ type: 'ports', id: m.id, ports: { app: app.port, caller, service, raw } });
});
process.on('disconnect', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => handle.close())
    .finally(() => process.exit(0));
});
