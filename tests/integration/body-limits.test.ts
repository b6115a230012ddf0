import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { TRPCClientError, createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT } from '../../server/http/body-limit.js';
import { DISCARD_AT_MOST_BYTES } from '../../server/http/discard-body.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { base64, tinyPdf } from '../helpers/pdf.js';

/**
 * Request bodies are bounded before they are read into memory: 64 KB of JSON
 * everywhere (REST, tRPC, internal routes), room for a 10 MB PDF only on the
 * upload procedures; a larger body is a 413 with a message, whether it
 * announces its length or streams it.
 */

let server: TestServer;
let admin: TestUser;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' });
  admin = await server.user({ role: 'admin' });
}, 180_000);
afterAll(() => server?.stop());

const bigMessage = (bytes: number) => ({ name: 'Big', email: 'big@example.test', message: 'x'.repeat(bytes) });

/** Streams a body in chunks without Content-Length, until the server answers; `error` is a reset or failed write seen on the way. */
function streamChunked(path: string, totalBytes: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; bytesSent: number; error?: string }>((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    let error: string | undefined;
    const req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, bytesSent, error }));
    });
    req.on('error', (err) => {
      error = String(err);
      if (!answered) reject(err);
    });
    const chunk = `"${'y'.repeat(16 * 1024 - 2)}"`;
    const pump = () => {
      while (!answered && bytesSent < totalBytes) {
        bytesSent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.write('{"message":');
    pump();
  });
}

describe('JSON bodies', () => {
  it('REST: a body over 64 KB is a 413 envelope with a message, one under it is read', async () => {
    const tooBig = await server.request('POST', '/api/support/create-support-request', { body: bigMessage(JSON_BODY_LIMIT) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ status: 413, message: 'The request body is too large: at most 64 KB is accepted.' });

    const fine = await server.request('POST', '/api/support/create-support-request', { body: bigMessage(4000) });
    expect(fine.status).toBe(200);
  });

  it('REST: a streamed body without Content-Length is refused once it passes the limit, the rest read and dropped', async () => {
    const res = await streamChunked('/api/support/create-support-request', 8 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe('The request body is too large: at most 64 KB is accepted.');
    // The client sent all of it and was never reset.
    expect(res.bytesSent).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    expect(res.error).toBeUndefined();
  });

  it('tRPC: an oversized call fails with PAYLOAD_TOO_LARGE that the typed client reads, batched or not', async () => {
    for (const link of [httpLink, httpBatchLink]) {
      const client = createTRPCClient<AppRouter>({ links: [link({ url: `${server.url}/trpc`, transformer: superjson })] });
      const err = await client.support.create.mutate(bigMessage(JSON_BODY_LIMIT)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TRPCClientError);
      const e = err as TRPCClientError<AppRouter>;
      expect(e.data?.httpStatus).toBe(413);
      expect(e.data?.code).toBe('PAYLOAD_TOO_LARGE');
      expect(e.message).toBe('The request body is too large: at most 64 KB is accepted.');
    }
  });

  it('tRPC: a streamed body is counted too', async () => {
    const res = await streamChunked('/trpc/support.create', 8 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.error).toBeUndefined();
  });

  it('a streamed body past what is worth reading is cut off', async () => {
    const res = await streamChunked('/api/support/create-support-request', 3 * DISCARD_AT_MOST_BYTES).catch((err: Error) => ({
      status: 0,
      bytesSent: Number.NaN,
      error: String(err),
    }));
    // Either the 413 arrived before the reset or only the reset did; either way the server stopped reading.
    expect([0, 413]).toContain(res.status);
    if (res.status === 413) expect(res.bytesSent).toBeLessThan(2 * DISCARD_AT_MOST_BYTES);
  });

  it('internal routes: the same limit', async () => {
    const app = createApp(server.deps, { serveClient: false, internalToken: 'internal-secret' });
    const body = JSON.stringify({ email: 'x@example.test', firstName: 'x'.repeat(JSON_BODY_LIMIT), role: 2 });
    const res = await app.request('/internal/users', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        authorization: 'Bearer internal-secret',
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status: 413, message: 'The request body is too large: at most 64 KB is accepted.' });
  });
});

describe('uploads', () => {
  const client = () =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${admin.token}` } })],
    });

  it('the upload procedure takes a PDF far over 64 KB', async () => {
    const patient = await server.user({ role: 'client' });
    const padded = tinyPdf(`a comment of 2 MB ${'x'.repeat(2 * 1024 * 1024)}`);
    const saved = await client().admin.dietPlans.upload.mutate({
      clientId: patient.id,
      title: 'Large plan',
      from: '2026-11-01',
      to: '2026-11-30',
      pdfBase64: base64(padded),
    });
    expect(saved.id).toBeGreaterThan(0);
  });

  it('but not past its own limit: 413 once the body passes it', async () => {
    const res = await streamChunked('/trpc/admin.dietPlans.upload', UPLOAD_BODY_LIMIT + 4 * 1024 * 1024, {
      authorization: `Bearer ${admin.token}`,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.json.message).toBe('The request is too large: an upload can carry a PDF of at most 10 MB.');
  });

  it('other procedures do not get the upload room', async () => {
    const res = await server.request('POST', '/trpc/admin.clients.create', {
      token: admin.token,
      body: JSON.stringify({ json: { firstName: 'x'.repeat(200 * 1024) } }),
    });
    expect(res.status).toBe(413);
  });
});

/**
 * Sends a whole request on a bare socket before reading anything, as Python's requests and many HTTP
 * libraries do (no Expect: 100-continue), then reads the answer.
 */
function sendAllThenRead(path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ head: string; body: string }>((resolve, reject) => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.pause();
    socket.on('error', reject);
    const lines = [
      `POST ${path} HTTP/1.1`,
      'Host: localhost',
      `Content-Length: ${body.length}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    socket.write(body, (err) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        resolve({ head: text.slice(0, split), body: text.slice(split + 4) });
      });
      socket.resume();
    });
  });
}

describe('a body over the limit gets its 413 over any client', () => {
  const twentyMb = Buffer.alloc(20 * 1024 * 1024, 0x20);

  it('one that sends all 20 MB before reading: the rest is read and dropped, then the 413, then the connection closes', async () => {
    const user = await server.user();
    const cases: [string, Record<string, string>, RegExp][] = [
      ['/api/support/create-support-request', { 'Content-Type': 'application/json' }, /at most 64 KB is accepted/],
      ['/api/attachments', { 'Content-Type': 'multipart/form-data; boundary=x', Authorization: `Bearer ${user.token}` }, /at most 10 MB/],
      ['/trpc/support.create', { 'Content-Type': 'application/json' }, /at most 64 KB is accepted/],
    ];
    for (const [path, headers, message] of cases) {
      const answer = await sendAllThenRead(path, headers, twentyMb);
      expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.head.toLowerCase()).toContain('connection: close');
      expect(answer.body).toMatch(message);
    }
  });

  it('Node’s fetch posting 20 MB without Expect: 100-continue reads the 413', async () => {
    const res = await fetch(`${server.url}/trpc/support.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: twentyMb,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.json.message).toBe('The request body is too large: at most 64 KB is accepted.');
  });
});
