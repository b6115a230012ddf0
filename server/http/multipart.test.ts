import { describe, expect, it } from 'vitest';
import { type MultipartRules, multipartBoundary, readWantedPart } from './multipart.js';

const RULES: MultipartRules = { field: 'file', maxParts: 4, maxHeaderBytes: 1024, maxFileBytes: 1000, maxBodyBytes: 4000 };

/** The bytes and Content-Type a browser's (here undici's) FormData makes. */
async function encode(form: FormData) {
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

/** The body as it might arrive: in chunks of `size` bytes. */
function streamOf(bytes: Uint8Array, size: number) {
  let at = 0;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    },
    { highWaterMark: 0 },
  );
  return { reader: stream.getReader(), pulls: () => pulls };
}

async function read(bytes: Uint8Array, contentType: string, rules = RULES, chunk = 64 * 1024) {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw new Error('no boundary');
  return readWantedPart(streamOf(bytes, chunk).reader, boundary, rules);
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: { reason?: string }) => e.reason ?? String(e),
  );

function raw(boundary: string, parts: string[], close = true) {
  return new TextEncoder().encode(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}${close ? `--${boundary}--\r\n` : ''}`);
}

describe('multipartBoundary', () => {
  it('reads a token or quoted boundary of a form, and nothing else', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('Multipart/Form-Data;boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary=----x')).toBe('----x');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
    expect(multipartBoundary('application/json; boundary=x')).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});

describe('readWantedPart', () => {
  it('reads the file of a browser-made form whatever the chunks, with its name in any script', async () => {
    const content = new Uint8Array(900).map((_, i) => (i * 7) % 256);
    // Bytes that look like the start of a delimiter inside the file.
    content.set(new TextEncoder().encode('\r\n--'), 100);
    const form = new FormData();
    form.append('note', 'for lunch');
    form.append('file', new Blob([content]), 'थाली "1".jpg');
    const { bytes, contentType } = await encode(form);
    for (const chunk of [1, 2, 3, 7, 64, 333, 100_000]) {
      const part = await read(bytes, contentType, RULES, chunk);
      expect(part.kind).toBe('file');
      if (part.kind !== 'file') continue;
      expect(part.filename).toBe('थाली "1".jpg');
      expect(Buffer.from(part.bytes).equals(Buffer.from(content))).toBe(true);
    }
  });

  it('answers text or absent when the field is not a file', async () => {
    const text = new FormData();
    text.append('file', 'not a file');
    const t = await encode(text);
    expect(await read(t.bytes, t.contentType)).toEqual({ kind: 'text' });
    const other = new FormData();
    other.append('photo', new Blob(['x']), 'a.png');
    const o = await encode(other);
    expect(await read(o.bytes, o.contentType)).toEqual({ kind: 'absent' });
  });

  it('takes curl’s escaped quotes and the RFC 8187 name, which wins over the plain one', async () => {
    const b = 'xyz';
    const escaped = raw(b, ['Content-Disposition: form-data; name="file"; filename="a\\"b.png"\r\nContent-Type: image/png\r\n\r\nDATA']);
    expect(await read(escaped, `multipart/form-data; boundary=${b}`)).toMatchObject({ kind: 'file', filename: 'a"b.png' });
    const extended = raw(b, [
      `Content-Disposition: form-data; name=file; filename*=UTF-8''%E0%A4%A5.png; filename="fallback.png"\r\n\r\nDATA`,
    ]);
    expect(await read(extended, `multipart/form-data; boundary=${b}`)).toMatchObject({ kind: 'file', filename: 'थ.png' });
  });

  it('refuses a second part of the field, more parts than allowed, and stops reading there', async () => {
    const b = 'bnd';
    const twice = raw(b, [
      'Content-Disposition: form-data; name="file"; filename="a"\r\n\r\n1',
      'Content-Disposition: form-data; name="file"; filename="b"\r\n\r\n2',
    ]);
    expect(await refusalOf(read(twice, `multipart/form-data; boundary=${b}`))).toBe('repeated-field');

    // 100,000 empty parts: refused at the fifth, having read only the first chunk of the body.
    const many = raw(
      b,
      Array.from({ length: 100_000 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\n`),
    );
    const stream = streamOf(many, 16 * 1024);
    const reason = await refusalOf(readWantedPart(stream.reader, b, { ...RULES, maxBodyBytes: 10 * 1024 * 1024 }));
    expect(reason).toBe('too-many-parts');
    expect(stream.pulls()).toBe(1);
  });

  it('refuses a file, a body or headers over their limits', async () => {
    const b = 'lim';
    const big = raw(b, [`Content-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'x'.repeat(1001)}`]);
    expect(await refusalOf(read(big, `multipart/form-data; boundary=${b}`, RULES, 10))).toBe('too-large');
    const bigOther = raw(b, [`Content-Disposition: form-data; name="other"\r\n\r\n${'x'.repeat(5000)}`]);
    expect(await refusalOf(read(bigOther, `multipart/form-data; boundary=${b}`))).toBe('too-large');
    const longHeader = raw(b, [`Content-Disposition: form-data; name="file"; filename="a"\r\nX-Pad: ${'p'.repeat(2000)}\r\n\r\nx`]);
    expect(await refusalOf(read(longHeader, `multipart/form-data; boundary=${b}`, { ...RULES, maxBodyBytes: 1e6 }, 100))).toBe(
      'headers-too-large',
    );
    const longPreamble = new TextEncoder().encode(`${'p'.repeat(2000)}\r\n--${b}--\r\n`);
    expect(await refusalOf(read(longPreamble, `multipart/form-data; boundary=${b}`, { ...RULES, maxBodyBytes: 1e6 }))).toBe(
      'headers-too-large',
    );
  });

  it('refuses a form cut short, a part without a name, and garbage', async () => {
    const b = 'cut';
    const type = `multipart/form-data; boundary=${b}`;
    const cut = raw(b, ['Content-Disposition: form-data; name="file"; filename="a"\r\n\r\nDATA'], false);
    expect(await refusalOf(read(cut, type))).toBe('malformed');
    expect(await refusalOf(read(raw(b, ['Content-Type: image/png\r\n\r\nDATA']), type))).toBe('malformed');
    expect(await refusalOf(read(raw(b, ['\r\nDATA']), type))).toBe('malformed');
    expect(await refusalOf(read(raw(b, ['Content-Disposition: attachment; name="file"\r\n\r\nx']), type))).toBe('malformed');
    expect(await refusalOf(read(new TextEncoder().encode('just text'), type))).toBe('malformed');
    expect(await refusalOf(read(new TextEncoder().encode(`--${b}junk`), type))).toBe('malformed');
  });
});
