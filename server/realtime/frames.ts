import { jsonEncoder } from '@trpc/server/adapters/ws';
import { SerializedOnce } from '../trpc/output.js';

/**
 * The bytes of tRPC's WebSocket messages: its adapter's encoder (with
 * ready-made JSON spliced in), the text of one subscription's data message,
 * and a server's WebSocket frame of a text message. Only server/realtime
 * builds frames (tests/contracts/ holds them to tRPC's and ws's own).
 */

type Outgoing = { id?: unknown; jsonrpc?: unknown; result?: { type?: unknown; id?: unknown; data?: unknown } };

/**
 * The WebSocket adapter's encoder: JSON, as tRPC's own, with a
 * SerializedOnce payload written in as its ready-made text (the same JSON
 * value that stringifying the whole message would give), and its `onSent`
 * told the subscription's id (trpc/output.ts FirstMessage).
 */
export const frameEncoder = {
  encode(message: unknown): string {
    const m = message as Outgoing | null;
    const result = m?.result;
    const data = result?.data;
    if (!(data instanceof SerializedOnce)) return JSON.stringify(message);
    data.onSent?.(m!.id, m!.jsonrpc);
    // The envelope without data ends in '}}': open it up again and close it after the payload.
    const head = JSON.stringify({ id: m!.id, jsonrpc: m!.jsonrpc, result: { type: result!.type, id: result!.id } });
    return `${head.slice(0, -2)},"data":${data.json}}}`;
  },
  decode: jsonEncoder.decode,
};

/**
 * The opening of every data message of one subscription, up to where its
 * tracked id (or, untracked, its data) goes: what tRPC's adapter and
 * frameEncoder write, made once per subscription.
 */
export function messageHead(subscriptionId: unknown, jsonrpc: unknown, tracked: boolean): string {
  const head = JSON.stringify({ id: subscriptionId, jsonrpc, result: { type: 'data' } });
  return `${head.slice(0, -2)},${tracked ? '"id":' : '"data":'}`;
}

/** The rest of a data message after messageHead: the tracked id and data (tracked), or the data. */
export function messageTail(trackedId: string | null, dataJson: string): string {
  return trackedId === null ? `${dataJson}}}` : `${JSON.stringify(trackedId)},"data":${dataJson}}}`;
}

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
