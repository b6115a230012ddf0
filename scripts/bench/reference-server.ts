/**
 * The least server that gives the app's answers: node:http, one pg pool, named
 * (prepared) statements doing the same queries as the app (session lookup,
 * the feed page; a like toggle in the app's own statement: the post's row
 * lock with its kept count, the like or unlike, the event-order lock, the
 * event row and its NOTIFY, on an events table, channel and lock of its own),
 * hearing its own NOTIFYs on a LISTEN connection as every app instance does.
 *
 * It is also the least-possible live fan-out (decision 109): WebSocket
 * subscribers on /ws, and for each event it hears, one message of the app's
 * shape built once, framed once, and written straight to every socket's
 * stream in one loop: no per-socket framing, views, session checks or
 * batches. The app's live feed is measured against it.
 *
 * For messages it is the least-possible sender and delivery: POST /messages
 * is one statement (the repeat check by the sender's key, the conversation's
 * gapless seq, the insert, and a NOTIFY carrying the whole message), writing
 * only the conversation's counter and the message; a socket on
 * /ws/messages?c=<id> hears one conversation, and for each NOTIFY it builds
 * one frame from the payload (nothing read again) and writes it to that
 * conversation's sockets.
 * Started by scripts/bench.ts as
 * its own process; its throughput is what this machine allows for that work.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { WebSocketServer } from 'ws';
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
/** The subscribers' TCP streams (ws framing skipped: each event's frame is made once). */
const subscribers = new Set<Duplex>();
listener.on('notification', (n) => {
  if (n.channel !== EVENTS_CHANNEL || !n.payload) return;
  const event = JSON.parse(n.payload) as { eventId: number; postId: number; likeCount: number };
  if (event.eventId > 0) heard += 1;
  if (subscribers.size === 0) return;
  const id = String(event.eventId);
  const data = { kind: 'like.changed', postId: event.postId, likeCount: event.likeCount };
  const text = Buffer.from(JSON.stringify({ id: 1, jsonrpc: '2.0', result: { type: 'data', id, data: { json: { id, data } } } }));
  const frame = textFrame(text);
  for (const stream of subscribers) stream.write(frame);
});

/** A server's unmasked text frame (RFC 6455 5.2), as ws.send would write it. */
function textFrame(text: Buffer): Buffer {
  const n = text.length;
  const header = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  text.copy(frame, header);
  return frame;
}
await listener.query(`listen ${EVENTS_CHANNEL}`);

const MESSAGES_CHANNEL = 'poshan_bench_messages';
/** Each conversation's subscribers, by conversation id. */
const conversationSockets = new Map<number, Set<Duplex>>();
/**
 * One statement per send: a repeat of the sender's key answers the first message; otherwise the
 * conversation's counter (its row lock makes seqs gapless, in commit order), the insert, and the NOTIFY
 * carrying the message as subscribers see it ($5 is the sender's name, read with the session).
 */
const SEND = {
  name: 'send',
  text: `with prior as (
           select id, seq, sent_at from messages where sender_id = $2 and client_message_id = $3),
         c as (
           update conversations set last_seq = last_seq + 1
           where id = $1 and client_id = $2 and not exists (select 1 from prior) returning id, last_seq),
         m as (
           insert into messages (conversation_id, seq, sender_id, sender_role, client_message_id, text, sent_at)
           select c.id, c.last_seq, $2, 'client', $3, $4, now() from c returning id, conversation_id, seq, sent_at)
         select m.id, m.seq, m.sent_at, pg_notify('${MESSAGES_CHANNEL}', json_build_object(
             'conversationId', m.conversation_id, 'seq', m.seq,
             'message', json_build_object('id', m.id, 'seq', m.seq, 'conversationId', m.conversation_id,
               'clientMessageId', $3::uuid, 'sender', json_build_object('id', $2::integer, 'name', $5::text, 'role', 'client'),
               'text', $4::text, 'attachments', '[]'::json, 'sentAt', m.sent_at))::text)::text as notified
         from m
         union all
         select id, seq, sent_at, null from prior`,
};
listener.on('notification', (n) => {
  if (n.channel !== MESSAGES_CHANNEL || !n.payload) return;
  const { conversationId, seq, message } = JSON.parse(n.payload) as { conversationId: number; seq: number; message: unknown };
  const sockets = conversationSockets.get(conversationId);
  if (!sockets?.size) return;
  const id = String(seq);
  const data = { kind: 'message', message };
  const frame = textFrame(
    Buffer.from(JSON.stringify({ id: 1, jsonrpc: '2.0', result: { type: 'data', id, data: { json: { id, data } } } })),
  );
  for (const stream of sockets) stream.write(frame);
});
await listener.query(`listen ${MESSAGES_CHANNEL}`);

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

const SESSION = {
  name: 'session',
  text: `select s.id as session_id, u.id, u.role, u.first_name, u.last_name from sessions s join users u on u.id = s.user_id
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

async function sendMessage(req: IncomingMessage, res: ServerResponse) {
  let text = '';
  for await (const chunk of req) text += chunk;
  const user = await userOf(req);
  if (!user) return send(res, 401, { status: 401, message: 'Your session has expired. Please sign in again.' });
  const body = JSON.parse(text) as { conversationId: number; text: string; clientMessageId: string };
  const name = `${user.first_name} ${user.last_name}`;
  const { rows } = await pool.query({ ...SEND, values: [body.conversationId, user.id, body.clientMessageId, body.text, name] });
  if (!rows[0]) return send(res, 404, { status: 404, message: 'No such conversation.' });
  send(res, 201, { status: 201, message: 'Message sent', data: { id: rows[0].id, seq: rows[0].seq, sentAt: rows[0].sent_at } });
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
  const route =
    req.method === 'GET' && req.url?.startsWith('/feeds')
      ? feed
      : req.method === 'PUT' && req.url === '/like'
        ? toggle
        : req.method === 'POST' && req.url === '/messages'
          ? sendMessage
          : null;
  if (req.url === '/healthz') return send(res, 200, { status: 200, message: 'ok' });
  if (!route) return send(res, 404, { status: 404, message: 'no such path' });
  route(req, res).catch((err: Error) => send(res, 500, { status: 500, message: err.message }));
});
server.keepAliveTimeout = 60_000;
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
server.on('upgrade', (req, socket, head) => {
  const conversation = /^\/ws\/messages\?c=(\d+)$/.exec(req.url ?? '');
  if (req.url !== '/ws' && !conversation) return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => {
    const set = conversation ? (conversationSockets.get(Number(conversation[1])) ?? new Set<Duplex>()) : subscribers;
    if (conversation) conversationSockets.set(Number(conversation[1]), set);
    set.add(socket);
    ws.once('close', () => set.delete(socket));
    ws.send('ready');
  });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});
process.on('message', (m: { type: string; id: number }) => {
  if (m.type === 'heard') process.send?.({ type: 'heard', id: m.id, heard });
  if (m.type === 'memory') {
    globalThis.gc?.();
    process.send?.({ type: 'memory', id: m.id, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
  }
});
process.on('disconnect', () => {
  void listener.end().finally(() => process.exit(0));
});
