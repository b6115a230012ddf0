import type { Duplex } from 'node:stream';
import { jsonEncoder } from '@trpc/server/adapters/ws';
import superjson from 'superjson';
import type { WebSocket } from 'ws';

/**
 * Serialize once, send to every socket (issue 10). A live feed event that
 * thousands of subscribers receive is one object, shared by all of them
 * (feed/events.ts marks it with shareSerialization). tRPC serializes each
 * subscriber's message on its own: the transformer below turns the shared
 * payload into JSON the first time and hands back the same SerializedOnce
 * to every later subscriber, and the WebSocket encoder splices that JSON
 * into each subscriber's small envelope (its subscription id) instead of
 * stringifying the payload again. Anything not marked is serialized as before.
 */

type Serialized = ReturnType<typeof superjson.serialize>;

/** A payload serialized once: its superjson form, and that form as JSON text. */
export class SerializedOnce {
  constructor(
    readonly value: Serialized,
    readonly json: string,
  ) {}
  /** Wherever it is stringified as a whole (an HTTP response), it is what superjson would have made. */
  toJSON(): Serialized {
    return this.value;
  }
}

/** Shared payloads, and their serialized tracked envelope once made (weak: they go with the event). */
const shared = new WeakMap<object, { id: unknown; frame: SerializedOnce } | null>();

/** Marks an object that many subscribers will be sent as it is: it is serialized once. Never mutate it afterwards. */
export function shareSerialization<T extends object>(payload: T): T {
  if (!shared.has(payload)) shared.set(payload, null);
  return payload;
}

/**
 * Whether superjson would leave this value as it is: strings, finite
 * numbers, booleans, null, arrays and plain objects of those (no Date,
 * undefined, bigint, Map...). Much cheaper than superjson's own walk, which
 * records a path for every value; a feed page is almost all numbers.
 */
function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (depth > 32) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (key === '__proto__' || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** superjson.serialize, without its walk when there is nothing for it to do (the same result: `{ json }`). */
export function serializeOutput(value: unknown): Serialized {
  return isPlainJson(value) ? ({ json: value } as Serialized) : superjson.serialize(value);
}

/**
 * The router's output transformer: superjson, except that a tracked
 * envelope ({ id, data }, made by the WebSocket adapter for each subscriber)
 * around a shared payload is serialized once per payload and id.
 */
export const sharedOutputTransformer = {
  serialize(value: unknown): unknown {
    if (typeof value === 'object' && value !== null && 'data' in value && 'id' in value) {
      const data = value.data;
      if (typeof data === 'object' && data !== null && shared.has(data)) {
        const hit = shared.get(data);
        if (hit && hit.id === value.id) return hit.frame;
        const serialized = serializeOutput(value);
        const frame = new SerializedOnce(serialized, JSON.stringify(serialized));
        shared.set(data, { id: value.id, frame });
        return frame;
      }
    }
    return serializeOutput(value);
  },
  deserialize: superjson.deserialize,
};

type Outgoing = { id?: unknown; jsonrpc?: unknown; result?: { type?: unknown; id?: unknown; data?: unknown } };

/**
 * The WebSocket adapter's encoder: JSON, as tRPC's own, with a
 * SerializedOnce payload written in as its ready-made text: the same JSON
 * value that stringifying the whole message would give.
 */
export const sharedFrameEncoder = {
  encode(message: unknown): string {
    if (typeof message === 'object' && message !== null) announce(message as Outgoing);
    const result = (message as Outgoing | null)?.result;
    const data = result?.data;
    if (data instanceof SerializedOnce) {
      const m = message as Outgoing;
      // The envelope without data ends in '}}': open it up again and close it after the payload.
      const head = JSON.stringify({ id: m.id, jsonrpc: m.jsonrpc, result: { type: result!.type, id: result!.id } });
      return `${head.slice(0, -2)},"data":${data.json}}}`;
    }
    return JSON.stringify(message);
  },
  decode: jsonEncoder.decode,
};

/** Payloads whose sending tells a subscription its id (see announceOnSend). */
const announcing = new WeakMap<object, (subscriptionId: unknown, jsonrpc: unknown) => void>();

/**
 * Calls `onSent` with the subscription's id when tRPC's WebSocket adapter
 * encodes a message carrying this payload (tracked: `{ id, data: payload }`).
 * A subscription learns its id this way, which tRPC does not hand to
 * procedures, and can then write its own frames (trackedFrame).
 */
export function announceOnSend<T extends object>(payload: T, onSent: (subscriptionId: unknown, jsonrpc: unknown) => void): T {
  announcing.set(payload, onSent);
  return payload;
}

function announce(message: Outgoing) {
  const data = message.result?.data;
  const inner = typeof data === 'object' && data !== null ? (data as { json?: { data?: unknown } }).json?.data : undefined;
  if (typeof inner !== 'object' || inner === null) return;
  const onSent = announcing.get(inner);
  if (!onSent) return;
  announcing.delete(inner);
  onSent(message.id, message.jsonrpc);
}

/** Frames of shared payloads by subscription id, jsonrpc and tracked id (weak: they go with the payload). */
const frames = new WeakMap<object, Map<string, Buffer>>();

/**
 * The WebSocket frame text tRPC would send for a tracked event of this
 * subscription: the same JSON its adapter, the output transformer and
 * sharedFrameEncoder make. A shared payload's frame is made once per
 * subscription id (most sockets use the same few) and written to every socket.
 */
export function trackedFrame(subscriptionId: unknown, jsonrpc: unknown, trackedId: string, payload: object): Buffer {
  const make = () =>
    Buffer.from(
      sharedFrameEncoder.encode({
        id: subscriptionId,
        jsonrpc,
        result: { type: 'data', id: trackedId, data: sharedOutputTransformer.serialize({ id: trackedId, data: payload }) },
      }),
    );
  if (!shared.has(payload)) return make();
  let byKey = frames.get(payload);
  if (!byKey) {
    byKey = new Map();
    frames.set(payload, byKey);
  }
  const key = `${JSON.stringify(subscriptionId)}|${String(jsonrpc)}|${trackedId}`;
  let frame = byKey.get(key);
  if (!frame) {
    frame = make();
    byKey.set(key, frame);
  }
  return frame;
}

/** The TCP stream under each server WebSocket, recorded at its upgrade (ws.ts). */
const streams = new WeakMap<WebSocket, Duplex>();

export function recordStream(ws: WebSocket, stream: Duplex): void {
  streams.set(ws, stream);
}

/** Complete WebSocket frames of texts sent to many sockets (weak: they go with the text). */
const framesOf = new WeakMap<Buffer, Buffer>();

/**
 * A server's WebSocket frame of one whole text message (RFC 6455 section
 * 5.2): FIN and the text opcode, the length in 7, 16 or 64 bits, no mask
 * (servers never mask), no compression; the bytes `ws.send` writes.
 */
export function textFrame(text: Buffer): Buffer {
  const length = text.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  text.copy(frame, headerLength);
  return frame;
}

function frameOf(text: Buffer): Buffer {
  let frame = framesOf.get(text);
  if (!frame) {
    frame = textFrame(text);
    framesOf.set(text, frame);
  }
  return frame;
}

/**
 * Sends a text message whose Buffer many sockets are sent (trackedFrame's),
 * framed once (textFrame): the bytes `ws.send` would write, written
 * straight to the socket's stream, which is what `ws` made its Sender.frame
 * public for (a broadcast). It spares `ws` framing the same message again
 * for every socket, and the socket a two-part write (issue 10). `ws` writes
 * each of its own frames synchronously, so frames written either way stay
 * in order. A socket with an extension (permessage-deflate: its frames are
 * compressed, and may wait their turn) or with no recorded stream is sent
 * through `ws` as usual. Call it on an OPEN socket.
 */
export function sendShared(ws: Pick<WebSocket, 'send' | 'extensions'>, text: Buffer): void {
  const stream = ws.extensions === '' ? streams.get(ws as WebSocket) : undefined;
  if (stream) stream.write(frameOf(text));
  else ws.send(text, { binary: false });
}
