/**
 * The least server that gives the app's answers: node:http, one pg pool, named
 * (prepared) statements doing the same queries as the app (session lookup,
 * the feed page; a like toggle in the app's own statement: the post's row
 * lock with its kept count, the like or unlike, the event-order lock, the
 * event row and its NOTIFY, on an events table, channel and lock of its own),
 * hearing its own NOTIFYs on a LISTEN connection as every app instance does.
 * Started by scripts/bench.ts as
 * its own process; its throughput is what this machine allows for that work.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { type ToggleRow, toggleStatement } from './statements.js';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: url, max: 10 });
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

// It hears its own events, as every app instance hears the feed's (what it would fan out to its sockets).
const EVENTS_CHANNEL = 'poshan_bench_reference';
const listener = new pg.Client({ connectionString: url });
await listener.connect();
let heard = 0;
listener.on('notification', (n) => {
  if (n.payload && (JSON.parse(n.payload) as { eventId: number }).eventId > 0) heard += 1;
});
await listener.query(`listen ${EVENTS_CHANNEL}`);

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

const SESSION = {
  name: 'session',
  text: `select s.id as session_id, u.id, u.role from sessions s join users u on u.id = s.user_id
         where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and u.is_active`,
};
const FEED_PAGE = {
  name: 'feed_page',
  text: `select p.id, p.description, p.created_at,
           p.like_count,
           array(select l.user_id from feed_likes l where l.post_id = p.id order by l.user_id limit 100) as likes,
           exists(select 1 from feed_likes l where l.post_id = p.id and l.user_id = $1) as liked_by_me
         from feed_posts p order by p.created_at desc, p.id desc limit 21`,
};
const TOGGLE = toggleStatement('toggle', { eventsTable: 'bench_reference_events', channel: EVENTS_CHANNEL, lock: 7 });

async function userOf(req: IncomingMessage) {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  if (!m) return null;
  const r = await pool.query({ ...SESSION, values: [hash(m[1]!)] });
  return r.rows[0] ?? null;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function feed(req: IncomingMessage, res: ServerResponse) {
  const user = await userOf(req);
  if (!user) return send(res, 401, { status: 401, message: 'Your session has expired. Please sign in again.' });
  const { rows } = await pool.query({ ...FEED_PAGE, values: [user.id] });
  const page = rows.slice(0, 20);
  const data = page.map((r) => ({
    id: r.id,
    desc: r.description,
    createdAt: r.created_at.toISOString(),
    likes: r.likes,
    likeCount: r.like_count,
    likedByMe: r.liked_by_me,
    author: { name: 'Poshan team' },
  }));
  send(res, 200, { status: 200, message: 'Feeds loaded', data, nextCursor: rows.length > 20 ? 'next' : null });
}

async function toggle(req: IncomingMessage, res: ServerResponse) {
  let text = '';
  for await (const chunk of req) text += chunk;
  const user = await userOf(req);
  if (!user) return send(res, 401, { status: 401, message: 'Your session has expired. Please sign in again.' });
  const { feedId } = JSON.parse(text) as { feedId: number };
  // Like the app: a statement that changed nothing (the same user's toggle raced it) is sent again.
  for (;;) {
    const r = (await pool.query({ name: TOGGLE.name, text: TOGGLE.text, values: TOGGLE.values(feedId, user.id, Date.now()) }))
      .rows[0] as ToggleRow;
    if (!r.found) return send(res, 404, { status: 404, message: 'That post does not exist.' });
    if (r.event_id !== null)
      return send(res, 200, { status: 200, message: 'ok', data: { feedId, liked: r.liked, likeCount: r.like_count } });
  }
}

const server = createServer((req, res) => {
  const route = req.method === 'GET' && req.url?.startsWith('/feeds') ? feed : req.method === 'PUT' && req.url === '/like' ? toggle : null;
  if (req.url === '/healthz') return send(res, 200, { status: 200, message: 'ok' });
  if (!route) return send(res, 404, { status: 404, message: 'no such path' });
  route(req, res).catch((err: Error) => send(res, 500, { status: 500, message: err.message }));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});
process.on('message', (m: { type: string; id: number }) => {
  if (m.type === 'heard') process.send?.({ type: 'heard', id: m.id, heard });
});
process.on('disconnect', () => {
  void listener.end().finally(() => process.exit(0));
});
