import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressKept, compressResponses } from './compression.js';
import { envelope, keptAnswerOf } from './envelope.js';
import { keepJsonText, keptJson } from './json-text.js';

/** The text keptJson stands for, chunks or not. */
const jsonText = (value: unknown) => {
  const json = keptJson(value);
  return typeof json === 'object' ? Buffer.concat(json).toString('utf8') : json;
};

const item = (id: number) => Object.freeze({ id, desc: `Post "${id}" – é`, likes: Object.freeze([1, 2, 3]), likedByMe: id % 2 === 0 });

describe('kept JSON text', () => {
  it('gives the same text as JSON.stringify, whether the elements were kept or not', () => {
    const kept = [keepJsonText(item(1)), keepJsonText(item(2))];
    const mixed = [keepJsonText(item(3)), item(4)];
    for (const value of [kept, mixed, [], [1, 'a', null], { a: kept }, 'text', 5, null, kept[0]]) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
    expect(jsonText(undefined)).toBeUndefined();
  });

  it('hands kept values over as their UTF-8 bytes, and anything else as text', () => {
    const kept = [keepJsonText(item(7)), keepJsonText(item(8))];
    expect(Array.isArray(keptJson(kept))).toBe(true);
    expect(Array.isArray(keptJson(kept[0]))).toBe(true);
    expect(typeof keptJson([kept[0], item(9)])).toBe('string');
    expect(typeof keptJson({ a: kept })).toBe('string');
  });

  it('splices a kept element’s text as it was when kept (so it must be frozen)', () => {
    const mutable = { n: 1 };
    keepJsonText(mutable);
    mutable.n = 2;
    expect(jsonText([mutable])).toBe('[{"n":1}]');
  });
});

describe('envelope text', () => {
  const answer = async (data: unknown, extra?: Record<string, unknown>) => {
    const app = new Hono().get('/', (c) => envelope(c, 200, 'Feeds "loaded"', data, extra));
    const res = await app.request('/');
    return { text: await res.text(), length: res.headers.get('content-length') };
  };

  it('is what JSON.stringify makes of status, message, data and the extra fields, with its length', async () => {
    const data = [keepJsonText(item(5)), keepJsonText(item(6))];
    const { text, length } = await answer(data, { nextCursor: 'abc', skipped: undefined, status: 500, data: 'no' });
    expect(text).toBe(JSON.stringify({ status: 200, message: 'Feeds "loaded"', data, nextCursor: 'abc' }));
    expect(Number(length)).toBe(Buffer.byteLength(text));
    expect((await answer(undefined)).text).toBe(JSON.stringify({ status: 200, message: 'Feeds "loaded"' }));
    expect((await answer({ when: new Date(0) }, { count: 3 })).text).toBe(
      JSON.stringify({ status: 200, message: 'Feeds "loaded"', data: { when: new Date(0) }, count: 3 }),
    );
  });

  it('is compressed whole for a client that accepts gzip, kept bytes and all', async () => {
    const data = Array.from({ length: 40 }, (_, i) => keepJsonText(item(i)));
    const app = new Hono();
    app.use('*', compressResponses());
    app.get('/', (c) => envelope(c, 200, 'Feeds loaded', data, { nextCursor: null }));
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(text).toBe(JSON.stringify({ status: 200, message: 'Feeds loaded', data, nextCursor: null }));
  });

  it('is made once around a kept value and sent again as it is, while head and tail are the same', async () => {
    const data = keepJsonText(Object.freeze([keepJsonText(item(50)), keepJsonText(item(51))]));
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

  it('a kept answer is compressed once per encoding, and every request gets the whole answer', async () => {
    const data = keepJsonText(Object.freeze(Array.from({ length: 40 }, (_, i) => keepJsonText(item(100 + i)))));
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

    const answer = new Hono().get('/', (c) => envelope(c, 200, 'Feeds loaded', data, { nextCursor: null }));
    const kept = keptAnswerOf(await answer.request('/'));
    expect(kept).toBeDefined();
    expect(compressKept(kept!, 'gzip')).toBe(compressKept(kept!, 'gzip'));
    expect(compressKept(kept!, 'br')).not.toBe(compressKept(kept!, 'gzip'));
    expect(keptAnswerOf(await new Hono().get('/', (c) => envelope(c, 200, 'ok', { a: 1 })).request('/'))).toBeUndefined();
  });
});
