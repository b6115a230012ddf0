import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressPrepared, compressResponses } from './compression.js';
import { envelope } from './envelope.js';
import { jsonChunks, prepare, prepareList, preparedJsonOf } from './prepared-json.js';

/** The text jsonChunks stands for, chunks or not. */
const jsonText = (value: unknown) => {
  const json = jsonChunks(value);
  return typeof json === 'object' ? Buffer.concat(json).toString('utf8') : json;
};

const item = (id: number) => ({ id, desc: `Post "${id}" – é`, likes: Object.freeze([1, 2, 3]), likedByMe: id % 2 === 0 });

describe('prepared JSON', () => {
  it('gives the same text as JSON.stringify, whether the elements were prepared or not', () => {
    const kept = [prepare(item(1)), prepare(item(2))];
    const mixed = [prepare(item(3)), item(4)];
    for (const value of [kept, mixed, [], [1, 'a', null], { a: kept }, 'text', 5, null, kept[0]]) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
    expect(jsonText(undefined)).toBeUndefined();
  });

  it('hands prepared values over as their UTF-8 bytes, and anything else as text', () => {
    const kept = [prepare(item(7)), prepare(item(8))];
    expect(Array.isArray(jsonChunks(kept))).toBe(true);
    expect(Array.isArray(jsonChunks(kept[0]))).toBe(true);
    expect(typeof jsonChunks([kept[0], item(9)])).toBe('string');
    expect(typeof jsonChunks({ a: kept })).toBe('string');
  });

  it('freezes what it prepares, and carries the JSON where JSON.stringify, spreads and keys never see it', () => {
    const value = prepare({ n: 1 });
    expect(Object.isFrozen(value)).toBe(true);
    expect(() => {
      // @ts-expect-error a prepared value is read-only
      value.n = 2;
    }).toThrow(TypeError);
    expect(JSON.stringify(value)).toBe('{"n":1}');
    expect(Object.keys({ ...value })).toEqual(['n']);
    expect(preparedJsonOf({ ...value })).toBeUndefined();
    expect(preparedJsonOf(value)?.bytes.toString('utf8')).toBe('{"n":1}');
    expect(preparedJsonOf([value])).toBeUndefined();
  });
});

describe('envelope text', () => {
  const answer = async (data: unknown, extra?: Record<string, unknown>) => {
    const app = new Hono().get('/', (c) => envelope(c, 200, 'Feeds "loaded"', data, extra));
    const res = await app.request('/');
    return { text: await res.text(), length: res.headers.get('content-length') };
  };

  it('is what JSON.stringify makes of status, message, data and the extra fields, with its length', async () => {
    const data = [prepare(item(5)), prepare(item(6))];
    const { text, length } = await answer(data, { nextCursor: 'abc', skipped: undefined, status: 500, data: 'no' });
    expect(text).toBe(JSON.stringify({ status: 200, message: 'Feeds "loaded"', data, nextCursor: 'abc' }));
    expect(Number(length)).toBe(Buffer.byteLength(text));
    expect((await answer(undefined)).text).toBe(JSON.stringify({ status: 200, message: 'Feeds "loaded"' }));
    expect((await answer({ when: new Date(0) }, { count: 3 })).text).toBe(
      JSON.stringify({ status: 200, message: 'Feeds "loaded"', data: { when: new Date(0) }, count: 3 }),
    );
  });

  it('is compressed whole for a client that accepts gzip, prepared bytes and all', async () => {
    const data = Array.from({ length: 40 }, (_, i) => prepare(item(i)));
    const app = new Hono();
    app.use('*', compressResponses());
    app.get('/', (c) => envelope(c, 200, 'Feeds loaded', data, { nextCursor: null }));
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(text).toBe(JSON.stringify({ status: 200, message: 'Feeds loaded', data, nextCursor: null }));
  });

  it('is made once around a prepared value and sent again as it is, while head and tail are the same', async () => {
    const data = prepareList([prepare(item(50)), prepare(item(51))]);
    const app = new Hono().get('/:message', (c) =>
      envelope(c, 200, c.req.param('message'), data, { nextCursor: c.req.query('next') ?? null }),
    );
    const read = async (path: string) => Buffer.from(await (await app.request(path)).arrayBuffer()).toString('utf8');
    const first = await read('/loaded');
    expect(first).toBe(JSON.stringify({ status: 200, message: 'loaded', data, nextCursor: null }));
    expect(await read('/loaded')).toBe(first);
    expect(await read('/other')).toBe(JSON.stringify({ status: 200, message: 'other', data, nextCursor: null }));
    expect(await read('/other?next=abc')).toBe(JSON.stringify({ status: 200, message: 'other', data, nextCursor: 'abc' }));
    expect(await read('/loaded')).toBe(first);
  });

  it('a prepared answer is compressed once per encoding, and every request gets the whole answer', async () => {
    const data = prepareList(Array.from({ length: 40 }, (_, i) => prepare(item(100 + i))));
    const app = new Hono();
    app.use('*', compressResponses());
    app.get('/', (c) => envelope(c, 200, 'Feeds loaded', data, { nextCursor: null }));
    const expected = JSON.stringify({ status: 200, message: 'Feeds loaded', data, nextCursor: null });
    const decode = { gzip: gunzipSync, br: brotliDecompressSync } as const;
    for (const encoding of ['gzip', 'br', 'gzip', 'br'] as const) {
      const res = await app.request('/', { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      expect(decode[encoding](bytes).toString('utf8')).toBe(expected);
    }
    const plain = await app.request('/');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(expected);

    const answer = preparedJsonOf(data)?.lastAnswer;
    expect(answer?.compressed.size).toBe(2);
    expect(compressPrepared(answer!, 'gzip')).toBe(compressPrepared(answer!, 'gzip'));
    expect(compressPrepared(answer!, 'br')).not.toBe(compressPrepared(answer!, 'gzip'));
    let made: unknown = 'unset';
    await new Hono()
      .get('/', (c) => {
        const res = envelope(c, 200, 'ok', { a: 1 });
        made = c.get('preparedAnswer');
        return res;
      })
      .request('/');
    expect(made).toBeUndefined();
  });
});
