import superjson from 'superjson';
import { describe, expect, it, vi } from 'vitest';
import { FirstMessage, SerializedOnce, outputTransformer, serializeOutput } from '../trpc/output.js';
import { frameEncoder, messageHead, messageTail } from './frames.js';

/** The message tRPC's WebSocket adapter builds for a subscription's data (tracked: `id` beside `data`, data `{ id, data }`). */
const message = (subscriptionId: number, trackedId: string | null, data: unknown) => ({
  id: subscriptionId,
  jsonrpc: '2.0' as const,
  result:
    trackedId === null
      ? { type: 'data' as const, data: outputTransformer.serialize(data) }
      : { type: 'data' as const, data: outputTransformer.serialize({ id: trackedId, data }), id: trackedId },
});
/** What tRPC's own encoder (JSON.stringify) would send with plain superjson. */
const plain = (subscriptionId: number, trackedId: string | null, data: unknown) =>
  JSON.parse(
    JSON.stringify({
      id: subscriptionId,
      jsonrpc: '2.0',
      result:
        trackedId === null
          ? { type: 'data', data: superjson.serialize(data) }
          : { type: 'data', data: superjson.serialize({ id: trackedId, data }), id: trackedId },
    }),
  );

describe('the first message of a live subscription', () => {
  it('is serialized as its event, and tells its onSent the subscription id as the encoder writes it', () => {
    for (const trackedId of ['42', null]) {
      const event = { kind: 'ready', at: new Date('2026-11-23T10:00:00Z') };
      const onSent = vi.fn();
      const m = message(7, trackedId, new FirstMessage(event, onSent));
      expect(m.result.data).toBeInstanceOf(SerializedOnce);
      expect(onSent).not.toHaveBeenCalled();
      const text = frameEncoder.encode(m);
      expect(onSent).toHaveBeenCalledWith(7, '2.0');
      expect(JSON.parse(text)).toEqual(plain(7, trackedId, event));
      expect(superjson.deserialize(JSON.parse(text).result.data)).toEqual(trackedId === null ? event : { id: trackedId, data: event });
    }
  });

  it('a SerializedOnce stringified whole (an HTTP answer) is what superjson makes', () => {
    const once = outputTransformer.serialize(new FirstMessage({ kind: 'post.deleted', postId: 1 }, () => {}));
    expect(JSON.parse(JSON.stringify({ result: once }))).toEqual({ result: superjson.serialize({ kind: 'post.deleted', postId: 1 }) });
  });

  it('anything else is encoded as tRPC encodes it', () => {
    expect(frameEncoder.encode({ id: 1, result: { type: 'started' } })).toBe('{"id":1,"result":{"type":"started"}}');
    const unshared = { at: new Date('2026-11-23T10:00:00Z') };
    expect(outputTransformer.serialize({ id: '5', data: unshared })).toEqual(superjson.serialize({ id: '5', data: unshared }));
  });
});

describe("the channel's own data messages", () => {
  it('are the message tRPC would send: head once per subscription, tail per event', () => {
    for (const [subscriptionId, trackedId] of [
      [1, '42'],
      [9, null],
    ] as const) {
      const event = { kind: 'like.changed', postId: 7, likeCount: 3 };
      const data = trackedId === null ? event : { id: trackedId, data: event };
      const text = messageHead(subscriptionId, '2.0', trackedId !== null) + messageTail(trackedId, JSON.stringify(serializeOutput(data)));
      expect(JSON.parse(text)).toEqual(plain(subscriptionId, trackedId, event));
    }
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
