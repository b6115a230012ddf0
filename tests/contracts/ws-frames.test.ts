import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { initTRPC, tracked } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import superjson from 'superjson';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import { frameEncoder, messageHead, messageTail, textFrame } from '../../server/realtime/frames.js';
import { createLiveChannel, type LiveSource, type ResumableStream } from '../../server/realtime/live-channel.js';
import { outputTransformer, serializeOutput } from '../../server/trpc/output.js';

/**
 * Contracts with `ws` and tRPC's WebSocket adapter that the live channel
 * (server/realtime/live-channel.ts) relies on:
 * - textFrame makes the bytes ws's Sender makes for a text message;
 * - the upgrade's socket is the request's `req.socket`, frames written to it
 *   arrive in order with ws's own, `extensions` is '' without compression,
 *   and bufferedAmount counts what waits on that socket;
 * - tRPC's adapter sends a data message in the shape messageHead/messageTail
 *   write (tracked and not), encodes each message as it is yielded and before
 *   it asks for the next (so the channel learns the id before writing).
 */

let server: Server | undefined;
let wss: WebSocketServer | undefined;
afterEach(async () => {
  for (const c of wss?.clients ?? []) c.terminate();
  await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  wss = undefined;
});

async function listen(opts: { deflate?: boolean } = {}) {
  server = createServer();
  wss = new WebSocketServer({ noServer: true, perMessageDeflate: opts.deflate ?? false });
  const accepted: { ws: WebSocket; req: IncomingMessage; socket: Duplex }[] = [];
  server.on('upgrade', (req, socket, head) =>
    wss!.handleUpgrade(req, socket, head, (ws) => {
      accepted.push({ ws, req, socket });
      wss!.emit('connection', ws, req);
    }),
  );
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, accepted };
}

function client(url: string, opts: { deflate?: boolean } = {}) {
  const ws = new WebSocket(url, { perMessageDeflate: opts.deflate ?? false });
  const received: string[] = [];
  ws.on('message', (data, isBinary) => received.push(`${isBinary ? 'binary' : 'text'}:${data.toString()}`));
  return { ws, received, open: new Promise((r) => ws.once('open', r)) };
}

describe('contract: ws frames', () => {
  // ws exports its framing (not in its types): what ws.send writes for a text message.
  const wsFrame = (text: Buffer) =>
    Buffer.concat(
      (wsModule as unknown as { Sender: { frame(d: Buffer, o: object): Buffer[] } }).Sender.frame(text, {
        fin: true,
        rsv1: false,
        opcode: 1,
        mask: false,
        readOnly: true,
      }),
    );
  const texts = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000].map((n) => Buffer.from('é'.repeat(n / 2) + 'x'.repeat(n % 2)));

  it('textFrame is the frame ws makes, at every length encoding', () => {
    for (const text of texts) expect(textFrame(text).equals(wsFrame(text))).toBe(true);
  });

  it("the upgrade's socket is req.socket; frames written to it arrive in order with ws's own; no extension without compression", async () => {
    const { url, accepted } = await listen();
    const c = client(url);
    await c.open;
    const [{ ws, req, socket }] = accepted as [(typeof accepted)[number]];
    expect(req.socket).toBe(socket);
    expect(ws.extensions).toBe('');
    const sent: string[] = [];
    for (const [i, text] of texts.entries()) {
      ws.send(`before ${i}`);
      req.socket.write(textFrame(text));
      sent.push(`text:before ${i}`, `text:${text.toString()}`);
    }
    await vi.waitFor(() => expect(c.received.length).toBe(sent.length));
    expect(c.received).toEqual(sent);
  });

  it('bufferedAmount counts bytes written straight to the socket and not yet sent', async () => {
    const { url, accepted } = await listen();
    const c = client(url);
    await c.open;
    const [{ ws, req }] = accepted as [(typeof accepted)[number]];
    const big = Buffer.alloc(32 * 1024 * 1024, 0x61);
    req.socket.write(textFrame(big));
    expect(ws.bufferedAmount).toBeGreaterThan(0);
    c.ws.terminate();
  });

  it('a socket that compresses names its extension', async () => {
    const { url, accepted } = await listen({ deflate: true });
    const c = client(url, { deflate: true });
    await c.open;
    expect(accepted[0]!.ws.extensions).toContain('permessage-deflate');
  });
});

describe("contract: tRPC's WebSocket data messages", () => {
  const t = initTRPC.create({ transformer: { input: superjson, output: superjson } });
  const event = { kind: 'like.changed', postId: 7, at: new Date('2026-11-23T10:00:00Z') };
  const router = t.router({
    tracked: t.procedure.subscription(async function* () {
      yield tracked('42', event);
    }),
    plain: t.procedure.subscription(async function* () {
      yield event;
    }),
  });

  it('are { id, jsonrpc, result: { type: "data", id, data } } as messageHead and messageTail write them', async () => {
    const { url } = await listen();
    applyWSSHandler({ wss: wss!, router });
    const c = client(url);
    await c.open;
    c.ws.send(JSON.stringify({ id: 3, jsonrpc: '2.0', method: 'subscription', params: { path: 'tracked', input: { json: null } } }));
    c.ws.send(JSON.stringify({ id: 4, method: 'subscription', params: { path: 'plain', input: { json: null } } }));
    await vi.waitFor(() => expect(c.received.filter((m) => m.includes('"data"')).length).toBe(2));
    const data = c.received.filter((m) => m.includes('"data"')).map((m) => JSON.parse(m.slice('text:'.length)));
    const ours = [
      messageHead(3, '2.0', true) + messageTail('42', JSON.stringify(superjson.serialize({ id: '42', data: event }))),
      messageHead(4, undefined, false) + messageTail(null, JSON.stringify(superjson.serialize(event))),
    ].map((text) => JSON.parse(text));
    expect(data.sort((a, b) => a.id - b.id)).toEqual(ours);
  });

  it('with our encoder and transformer, the live channel hands over after the first message and every message has that shape', async () => {
    const listeners = new Set<(n: { seq: number }) => void>();
    const source: LiveSource<{ seq: number }> = {
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const channel = createLiveChannel(source);
    const stream: ResumableStream<null, { seq: number }, { kind: string; seq?: number }> = {
      name: 'contract',
      ready: { kind: 'ready' },
      resume: {
        position: (n) => n.seq,
        latest: async () => 0,
        catchUp: async () => ({ events: [], position: 0, resync: false }),
        resync: { kind: 'resync' },
      },
      view: (_, n, views) => views.shared('all', () => ({ kind: 'note', seq: n.seq })),
    };
    const live = initTRPC.create({ transformer: { input: superjson, output: outputTransformer } });
    let writes = 0;
    const liveRouter = live.router({
      events: live.procedure.subscription(({ ctx, signal }) =>
        channel.open(stream, { viewer: null, signal, connection: (ctx as { connection: never }).connection }),
      ),
    });
    const { url } = await listen();
    applyWSSHandler({
      wss: wss!,
      router: liveRouter,
      experimental_encoder: frameEncoder,
      createContext: ({ req, res }) => {
        const socket = req.socket;
        const write = socket.write.bind(socket);
        const counted = (b: Buffer) => {
          writes += 1;
          return write(b);
        };
        return { connection: { ws: res, stream: { write: counted } } };
      },
    });
    const c = client(url);
    await c.open;
    c.ws.send(JSON.stringify({ id: 9, jsonrpc: '2.0', method: 'subscription', params: { path: 'events', input: { json: null } } }));
    await vi.waitFor(() => expect(c.received.some((m) => m.includes('"ready"'))).toBe(true));
    expect(channel.size).toBe(1);
    for (const l of listeners) l({ seq: 1 });
    await vi.waitFor(() => expect(c.received.some((m) => m.includes('"note"'))).toBe(true));
    expect(writes).toBe(1);
    const data = c.received.filter((m) => m.includes('"data"')).map((m) => JSON.parse(m.slice('text:'.length)));
    expect(data).toEqual([
      { id: 9, jsonrpc: '2.0', result: { type: 'data', id: '0', data: serializeOutput({ id: '0', data: { kind: 'ready' } }) } },
      { id: 9, jsonrpc: '2.0', result: { type: 'data', id: '1', data: serializeOutput({ id: '1', data: { kind: 'note', seq: 1 } }) } },
    ]);
  });
});
