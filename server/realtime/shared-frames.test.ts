import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import superjson from 'superjson';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import {
  SerializedOnce,
  recordStream,
  sendShared,
  serializeOutput,
  shareSerialization,
  sharedFrameEncoder,
  sharedOutputTransformer,
  textFrame,
} from './shared-frames.js';

/** The message the tRPC WebSocket adapter builds for one subscriber's tracked event. */
const message = (subscriptionId: number, trackedId: string, data: unknown) => ({
  id: subscriptionId,
  jsonrpc: '2.0' as const,
  result: { type: 'data' as const, data: sharedOutputTransformer.serialize({ id: trackedId, data }), id: trackedId },
});

describe('serialize once, send to every socket', () => {
  it('gives every subscriber of a shared payload the same serialization, and each its own subscription id', () => {
    const event = shareSerialization({ kind: 'like.changed', postId: 7, likeCount: 3 });
    const a = message(1, '42', event);
    const b = message(9, '42', event);
    expect(a.result.data).toBeInstanceOf(SerializedOnce);
    expect(b.result.data).toBe(a.result.data);
    for (const m of [a, b]) {
      const frame = sharedFrameEncoder.encode(m);
      // The same JSON value as stringifying the whole message with plain superjson would give.
      const plain = { ...m, result: { ...m.result, data: superjson.serialize({ id: '42', data: event }) } };
      expect(JSON.parse(frame)).toEqual(JSON.parse(JSON.stringify(plain)));
      expect(superjson.deserialize((JSON.parse(frame) as typeof plain).result.data)).toEqual({ id: '42', data: event });
    }
  });

  it('keeps superjson types (dates) and serializes anything unshared as before', () => {
    const shared = shareSerialization({ at: new Date('2026-11-23T10:00:00Z') });
    const frame = JSON.parse(sharedFrameEncoder.encode(message(1, '5', shared)));
    expect(superjson.deserialize(frame.result.data)).toEqual({ id: '5', data: { at: new Date('2026-11-23T10:00:00Z') } });
    const unshared = { at: new Date('2026-11-23T10:00:00Z') };
    expect(sharedOutputTransformer.serialize({ id: '5', data: unshared })).toEqual(superjson.serialize({ id: '5', data: unshared }));
    expect(sharedFrameEncoder.encode({ id: 1, result: { type: 'started' } })).toBe('{"id":1,"result":{"type":"started"}}');
  });

  it('a SerializedOnce stringified whole (an HTTP answer) is what superjson makes', () => {
    const shared = shareSerialization({ kind: 'post.deleted', postId: 1 });
    const once = sharedOutputTransformer.serialize({ id: '3', data: shared });
    expect(JSON.parse(JSON.stringify({ result: once }))).toEqual({ result: superjson.serialize({ id: '3', data: shared }) });
  });
});

describe('serializeOutput', () => {
  it('is superjson.serialize, without the walk for plain JSON', () => {
    const values: unknown[] = [
      { a: 1, b: 'x', c: [1, 2, 3], d: { e: null, f: true } },
      [1, -0],
      { u: undefined },
      { d: new Date(0) },
      // biome-ignore lint/suspicious/noSparseArray: a hole is not plain JSON
      [1, , 3],
      { n: Number.NaN, i: Number.POSITIVE_INFINITY },
      { m: new Map([[1, 2]]), s: new Set([1]) },
      10n,
      undefined,
      null,
      'text',
      Object.create(null),
      { r: /x/ },
      [undefined],
      { e: new Error('x') },
    ];
    for (const value of values) expect(serializeOutput(value)).toEqual(superjson.serialize(value));
  });
});

describe('a message framed once, written to each socket', () => {
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

  it('is the frame ws makes, at every length encoding', () => {
    for (const text of texts) expect(textFrame(text).equals(wsFrame(text))).toBe(true);
  });

  let server: Server | undefined;
  let wss: WebSocketServer | undefined;
  afterEach(async () => {
    for (const c of wss?.clients ?? []) c.terminate();
    await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  /** A server socket (its stream recorded as ws.ts does, unless told not to) and a client that collects what arrives. */
  async function pair(opts: { record?: boolean; deflate?: boolean } = {}) {
    server = createServer();
    wss = new WebSocketServer({ noServer: true, perMessageDeflate: opts.deflate ?? false });
    const accepted = new Promise<WebSocket>((resolve) => {
      server!.on('upgrade', (req, socket, head) =>
        wss!.handleUpgrade(req, socket, head, (ws) => {
          if (opts.record !== false) recordStream(ws, socket);
          resolve(ws);
        }),
      );
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { perMessageDeflate: opts.deflate ?? false });
    const received: string[] = [];
    client.on('message', (data, isBinary) => received.push(`${isBinary ? 'binary' : 'text'}:${data.toString()}`));
    await new Promise((r) => client.once('open', r));
    return { socket: await accepted, received };
  }

  it('arrives as the same text messages, in order with those ws sends itself', async () => {
    const { socket, received } = await pair();
    const sent: string[] = [];
    for (const [i, text] of texts.entries()) {
      socket.send(`before ${i}`);
      sendShared(socket, text);
      sent.push(`text:before ${i}`, `text:${text.toString()}`);
    }
    socket.send('last');
    sent.push('text:last');
    await vi.waitFor(() => expect(received.length).toBe(sent.length));
    expect(received).toEqual(sent);
  });

  it('goes through ws when the socket compresses its messages, or its stream was not recorded', async () => {
    for (const opts of [{ deflate: true }, { record: false }]) {
      const { socket, received } = await pair(opts);
      const send = vi.spyOn(socket, 'send');
      sendShared(socket, Buffer.from('{"kind":"like.changed"}'));
      expect(send).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(received).toEqual(['text:{"kind":"like.changed"}']));
      for (const c of wss!.clients) c.terminate();
      await new Promise<void>((r) => wss!.close(() => r()));
      await new Promise<void>((r) => server!.close(() => r()));
      wss = undefined;
      server = undefined;
    }
  });
});
