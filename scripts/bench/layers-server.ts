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
import { FEED_CHANNEL, FEED_WRITE_LOCK } from '../../server/realtime/feed-bus.js';
import { createContextFromToken } from '../../server/trpc/context.js';
import { startBenchApp } from './bench-app.js';
import { LOCK_POST_SQL, TOGGLE_SQL } from './statements.js';
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

// The service's statements as it sends them (repo.ts lockPost and toggleLike, feed-bus.ts publish), on a pool of the same size.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const LOCK = { name: 'layers_lock', text: LOCK_POST_SQL };
const TOGGLE = { name: 'layers_toggle', text: TOGGLE_SQL };
const EVENT = {
  name: 'layers_event',
  text: `with locked as (select pg_advisory_xact_lock(${FEED_WRITE_LOCK}::int8)),
         e as (insert into feed_events (kind, post_id, actor_id, like_count, liked, created_at)
               select 'like.changed', $1::int4, $2::int4, $3::int4, $4::boolean, clock_timestamp() from locked returning id)
         select id, pg_notify('${FEED_CHANNEL}', '{"eventId":' || id::text || $5) from e`,
};
const raw = await serve(async (req) => {
  const { feedId } = await jsonBody(req);
  const user = await deps.sessions.resolve(bearer(req) ?? '');
  if (!user) throw new Error('no session');
  const client = await pool.connect();
  try {
    await client.query('begin');
    const locked = await client.query({ ...LOCK, values: [feedId] });
    const toggled = (await client.query({ ...TOGGLE, values: [feedId, user.id] })).rows[0] as { liked: boolean; change: number };
    const likeCount = (locked.rows[0].like_count as number) + toggled.change;
    const rest = `,${JSON.stringify({ kind: 'like.changed', postId: feedId, actorId: user.id, likeCount, liked: toggled.liked, at: Date.now() }).slice(1)}`;
    await client.query({ ...EVENT, values: [feedId, user.id, likeCount, toggled.liked, rest] });
    await client.query('commit');
    deps.feedPages.evict();
    return { feedId, liked: toggled.liked, likeCount };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
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
