import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.js';
import { type ServerProcess, startServerProcess, tempDataDir } from '../helpers/processes.js';

/**
 * Traces (decision 051): off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, and then HTTP, pg and tRPC spans reach an OTLP/HTTP receiver. The real
 * server/main.ts runs as a child process with a preload that records every
 * module it imports.
 */

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number };
type OtlpBody = {
  resourceSpans: { resource?: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
};

const recorder = pathToFileURL(path.resolve('tests/helpers/record-imports.mjs')).href;
const scratch = mkdtempSync(path.join(tmpdir(), 'poshan-tracing-'));
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
const usesPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  if (usesPostgres) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function startRecorded(name: string, env: Record<string, string>) {
  const importsFile = path.join(scratch, `${name}.imports`);
  writeFileSync(importsFile, '');
  const data = tempDataDir();
  const dbEnv: Record<string, string> = database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: data.dir };
  const server = await startServerProcess({
    ...dbEnv,
    ...env,
    NODE_OPTIONS: `--import ${recorder}`,
    RECORD_IMPORTS_TO: importsFile,
  });
  return {
    server,
    imports: () => readFileSync(importsFile, 'utf8').split('\n').filter(Boolean),
    async stop() {
      const result = await server.stop();
      data.remove();
      return result;
    },
  };
}

/** A request that runs a tRPC procedure (through the REST adapter) which reads the database. */
async function failedSignIn(server: ServerProcess) {
  const res = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@poshan.test', password: 'not-a-password-at-all', role: 2 }),
  });
  expect(res.status).toBe(401);
}

const SECRET = 'weight-72-kg-in-a-query';
const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';

/** A tRPC GET whose input (and another parameter) carry SECRET, sent with a client's own traceparent. */
async function queryWithSecrets(server: ServerProcess) {
  const input = encodeURIComponent(JSON.stringify({ json: { note: SECRET } }));
  const res = await fetch(`${server.url}/trpc/countries.list?input=${input}&note=${SECRET}`, {
    headers: { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01` },
  });
  await res.arrayBuffer();
}

const spansOf = (bodies: OtlpBody[]) => bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));

/** Runs `work` against a traced server process and returns what an OTLP/HTTP receiver got (flushed by a clean stop). */
async function tracedRun(name: string, env: Record<string, string>, work: (server: ServerProcess) => Promise<void>) {
  const bodies: OtlpBody[] = [];
  const paths: string[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const run = await startRecorded(name, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'poshan-test', ...env });
  let result: Awaited<ReturnType<typeof run.stop>>;
  try {
    await work(run.server);
  } finally {
    result = await run.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
  return { run, result, bodies, paths };
}

// Each test starts server/main.ts cold (tsx compile, and initdb for the embedded database): the
// same allowance startServerProcess gives a start.
const PROCESS_START = { timeout: 180_000 };

describe('tracing', () => {
  it('loads no OpenTelemetry module when OTEL_EXPORTER_OTLP_ENDPOINT is unset', PROCESS_START, async () => {
    const run = await startRecorded('off', {});
    try {
      await failedSignIn(run.server);
    } finally {
      await run.stop();
    }
    const imports = run.imports();
    // The recorder saw the server's own modules (so an empty list cannot pass)...
    expect(imports.some((url) => url.endsWith('/server/trpc/init.ts'))).toBe(true);
    expect(imports.some((url) => url.includes('/node_modules/pino/'))).toBe(true);
    // ...and nothing of OpenTelemetry, not even the tracing glue.
    expect(imports.filter((url) => url.includes('@opentelemetry') || url.endsWith('/observability/otel.ts'))).toEqual([]);
  });

  it('exports HTTP, pg and tRPC spans of one request, in one trace, to an OTLP/HTTP receiver', PROCESS_START, async () => {
    const { run, result, bodies, paths } = await tracedRun('on', {}, async (server) => {
      await failedSignIn(server);
      await queryWithSecrets(server);
    });
    expect(result.code).toBe(0);
    expect(run.imports().some((url) => url.includes('/node_modules/@opentelemetry/'))).toBe(true);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^POST \/v1\/traces application\/json/);

    const services = bodies.flatMap((b) =>
      b.resourceSpans.map((r) => r.resource?.attributes.find((a) => a.key === 'service.name')?.value.stringValue),
    );
    expect(new Set(services)).toEqual(new Set(['poshan-test']));
    const spans = spansOf(bodies);
    const httpSpan = spans.find((s) => s.kind === 2 && s.name.startsWith('POST')); // SERVER
    expect(httpSpan, spans.map((s) => s.name).join(', ')).toBeDefined();
    const inTrace = spans.filter((s) => s.traceId === httpSpan?.traceId);
    const trpcSpan = inTrace.find((s) => s.name === 'trpc auth.signIn');
    expect(trpcSpan, inTrace.map((s) => s.name).join(', ')).toBeDefined();
    if (usesPostgres) {
      // pg's spans are children of the procedure's (or of the pool's connect span under it).
      const pgSpans = inTrace.filter((s) => s.kind === 3 && /^(pg\.|SELECT|INSERT|UPDATE|DELETE|WITH)/.test(s.name)); // CLIENT
      expect(pgSpans.length, inTrace.map((s) => s.name).join(', ')).toBeGreaterThan(0);
    }

    // A tRPC GET's input, and any other query, appears in no span; the client's traceparent chose nothing.
    const exported = JSON.stringify(bodies);
    expect(exported).not.toContain(SECRET);
    expect(exported).not.toContain('url.query');
    expect(exported).not.toContain('input=');
    const getSpan = spans.find((s) => s.kind === 2 && s.name.startsWith('GET'));
    expect(getSpan, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(getSpan?.traceId).not.toBe(CLIENT_TRACE_ID);
    expect(getSpan?.parentSpanId ?? '').toBe('');
    expect(spans.filter((s) => s.traceId === CLIENT_TRACE_ID)).toEqual([]);
  });

  it('continues an incoming traceparent only with OTEL_TRUST_TRACEPARENT=1', PROCESS_START, async () => {
    const { result, bodies } = await tracedRun('trusted', { OTEL_TRUST_TRACEPARENT: '1' }, queryWithSecrets);
    expect(result.code).toBe(0);
    const spans = spansOf(bodies);
    const getSpan = spans.find((s) => s.kind === 2 && s.name.startsWith('GET'));
    expect(getSpan, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(getSpan).toMatchObject({ traceId: CLIENT_TRACE_ID, parentSpanId: CLIENT_SPAN_ID });
    expect(JSON.stringify(bodies)).not.toContain(SECRET);
  });
});
