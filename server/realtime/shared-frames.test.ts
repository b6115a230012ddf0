import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { SerializedOnce, serializeOutput, shareSerialization, sharedFrameEncoder, sharedOutputTransformer } from './shared-frames.js';

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
