import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const expectedKind = process.env.TEST_DATABASE_URL || process.env.TEST_DB === 'container' ? 'postgres' : 'pglite';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe('health checks', () => {
  it('GET /healthz answers 200 while the process is up', async () => {
    const res = await server.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ status: 200, message: 'ok' });
  });

  it('GET /readyz answers 200 when the database answers, naming the backend', async () => {
    const res = await server.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: 'ready', data: { database: expectedKind } });
  });

  it('unknown API paths get the envelope with 404', async () => {
    const res = await server.request('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: 'There is no API path GET /api/no-such-thing.' });
  });
});

describe('readiness without a database', () => {
  it('GET /readyz answers 503 once the database is gone, while /healthz stays 200', async () => {
    const lonely = await startTestServer({ LOG_LEVEL: 'silent' });
    try {
      await lonely.deps.dbHandle.close();
      const ready = await lonely.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 503, message: 'The database is not answering.' });
      expect((await lonely.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await lonely.close();
    }
  });
});
