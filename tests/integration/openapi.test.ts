import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { Validator } from '@seriousme/openapi-schema-validator';
import { INVALID_JSON } from '../../server/http/json-body.js';
import { buildOpenApiDocument, errorStatuses, operationId, toOpenApiPath } from '../../server/rest/openapi.js';
import { defineRoutes, type RestRoute } from '../../server/rest/route.js';
import { restRoutes } from '../../server/rest/routes.js';
import type { Exchange } from '../helpers/api-recorder.js';
import { conformanceChecker } from '../helpers/openapi-conformance.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Doc = ReturnType<typeof buildOpenApiDocument>;
type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, any> }> };
  responses: Record<string, any>;
};

let server: TestServer;
let doc: Doc;

beforeAll(async () => {
  server = await startTestServer();
  const res = await server.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = res.body;
});
afterAll(() => server?.stop());

const op = (d: Doc, route: Pick<RestRoute, 'method' | 'path'>) =>
  d.paths[toOpenApiPath(route.path)]?.[route.method] as Operation | undefined;

/** Every "$ref" anywhere in the document. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refs(v, found);
    }
  }
  return found;
}

const resolvePointer = (d: unknown, ref: string) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], d);

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with info, servers, paths and bearer security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Poshan API', version: pkg.version });
    expect(doc.info.description).toContain('{ status, message, data? }');
    expect(doc.servers).toEqual([{ url: '/api' }]);
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
  });

  it('describes every REST route with its summary, tag and success envelope', () => {
    expect(restRoutes.length).toBeGreaterThan(0);
    for (const route of restRoutes) {
      const operation = op(doc, route);
      expect(operation, `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
      expect(operation!.summary).toBe(route.summary);
      expect(operation!.tags).toEqual([route.tag]);
      const success = operation!.responses[String(route.successStatus ?? 200)];
      if (route.download) {
        // A download answers the file itself, as one of its types.
        expect(Object.keys(success.content).sort()).toEqual([...route.download.contentTypes].sort());
        for (const type of route.download.contentTypes) expect(success.content[type].schema).toEqual({ type: 'string', format: 'binary' });
        continue;
      }
      const envelope = success.content['application/json'].schema;
      expect(envelope.properties.status).toEqual({ type: 'integer', const: route.successStatus ?? 200 });
      expect(envelope.required).toEqual(expect.arrayContaining(['status', 'message']));
      if (route.response) expect(envelope.required).toContain('data');
    }
  });

  it('has no path the route list does not have, and unique operation ids', () => {
    const documented = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(restRoutes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`).sort());
    const ids = documented.map((key) => {
      const [method, p] = key.split(' ') as [string, string];
      return (doc.paths[p]![method] as Operation).operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks bearer security, 401 and 403 exactly where a token is required', () => {
    for (const route of restRoutes) {
      const operation = op(doc, route)!;
      const label = `${route.method.toUpperCase()} ${route.path}`;
      if (route.auth === 'required') {
        expect(operation.security, label).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(['401', '403']));
      } else if (route.auth === 'optional') {
        expect(operation.security, label).toEqual([{}, { bearerAuth: [] }]);
      } else {
        expect(operation.security, label).toEqual([]);
      }
    }
  });

  it('documents request bodies, path and query parameters from the zod schemas', () => {
    for (const route of restRoutes) {
      const operation = op(doc, route)!;
      const label = `${route.method.toUpperCase()} ${route.path}`;
      if (route.request?.body) {
        expect(operation.requestBody?.content['application/json']?.schema.type, label).toBe('object');
        expect(Object.keys(operation.responses), label).toContain('400');
      } else if (route.request?.files) {
        // An upload: a multipart form whose file parts are required binaries.
        const form = operation.requestBody?.content['multipart/form-data']?.schema;
        expect(form?.required, label).toEqual(Object.keys(route.request.files));
        for (const part of Object.keys(route.request.files))
          expect(form?.properties[part], label).toMatchObject({ type: 'string', format: 'binary' });
        expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(['400', '413']));
      } else {
        expect(operation.requestBody, label).toBeUndefined();
      }
      for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        expect(operation.parameters, label).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      const queryFields = route.request?.query ? Object.keys((z.toJSONSchema(route.request.query, { io: 'input' }) as any).properties) : [];
      const documentedQuery = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(documentedQuery.sort(), label).toEqual(queryFields.sort());
    }
  });

  it('documents each route’s own error statuses, and the 400 envelope with field errors', () => {
    for (const route of restRoutes) {
      const operation = op(doc, route)!;
      for (const [status, description] of Object.entries(route.errors ?? {})) {
        expect(operation.responses[status]?.description, `${route.path} ${status}`).toBe(description);
      }
    }
    const validation = doc.components.schemas.ValidationError as any;
    // Field errors, or (a slot taken meanwhile, 409) the next free slots.
    expect(validation.properties.data.anyOf).toContainEqual({ $ref: '#/components/schemas/FieldErrors' });
    const fieldErrors = doc.components.schemas.FieldErrors as any;
    expect(fieldErrors.properties.fieldErrors.additionalProperties).toEqual({ type: 'array', items: { type: 'string' } });
    expect(Object.keys(doc.components.responses)).toEqual(
      expect.arrayContaining([
        'BadRequest',
        'Unauthorized',
        'Forbidden',
        'NotFound',
        'Conflict',
        'PayloadTooLarge',
        'TooManyRequests',
        'InternalError',
        'ServiceUnavailable',
      ]),
    );
    expect((doc.components.responses as any).TooManyRequests.headers['Retry-After']).toBeDefined();
  });

  it('resolves every $ref inside the document', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const ref of all) {
      expect(ref.startsWith('#/components/'), ref).toBe(true);
      expect(resolvePointer(doc, ref), ref).toBeDefined();
    }
  });

  it('documents the 400 the server really sends, with and without field errors', async () => {
    const user = await server.user();
    const res = await server.request('POST', '/api/updated-weights/add-updated-weight', { token: user.token, body: {} });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    expect(res.body.data.fieldErrors.weight).toEqual([expect.any(String)]);
    const notJson = await server.request('POST', '/api/updated-weights/add-updated-weight', { token: user.token, body: '{"weight":' });
    expect(notJson.body).toEqual({ status: 400, message: INVALID_JSON });
    // Both answers are checked against the document after this file (tests/helpers/api-conformance-setup.ts).
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc) as any);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every status each route can answer, as its declaration implies, with Retry-After where it applies', () => {
    for (const route of restRoutes) {
      const operation = op(doc, route)!;
      const label = `${route.method.toUpperCase()} ${route.path}`;
      const successes = [route.successStatus ?? 200, ...(route.repeatAnswer ? [200] : [])];
      const expected = [...new Set([...successes, ...errorStatuses(route)])].sort((a, b) => a - b).map(String);
      expect(Object.keys(operation.responses), label).toEqual(expected);
      expect(expected, label).toEqual(expect.arrayContaining(['500', '503']));
      if (route.method !== 'get') expect(expected, label).toEqual(expect.arrayContaining(['400', '413']));
      if (route.path.includes(':') || route.clientData) expect(expected, label).toContain('404');
      for (const status of ['429', '503'].filter((s) => expected.includes(s))) {
        const response = resolvePointer(doc, operation.responses[status].$ref ?? '') ?? operation.responses[status];
        expect(response.headers['Retry-After'].required, `${label} ${status}`).toBe(true);
      }
    }
  });

  it('lets sign-out be sent without a body, as the server takes it', async () => {
    const signOut = op(doc, { method: 'put', path: '/auth/sign-out' })!;
    expect(signOut.requestBody?.required).toBe(false);
    expect(signOut.security).toEqual([{}, { bearerAuth: [] }]);
    const user = await server.user();
    const res = await fetch(`${server.url}/api/auth/sign-out`, { method: 'PUT', headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(200);
    const anonymous = await server.request('PUT', '/api/auth/sign-out', { body: {} });
    expect(anonymous.status).toBe(401);
  });
});

describe('the conformance check of recorded calls', () => {
  const routes = defineRoutes([
    {
      method: 'post',
      path: '/notes/:noteId',
      summary: 'Add to a note',
      tag: 'Notes',
      auth: 'required',
      request: { body: z.object({ text: z.string().min(1) }), params: z.object({ noteId: z.coerce.number().int() }) },
      response: z.object({ id: z.number().int() }),
      errors: { 429: 'Slow down' },
      handle: async () => ({ message: 'added' }),
    },
  ]);
  const { check } = conformanceChecker(buildOpenApiDocument(routes));
  const call = (over: Partial<Exchange> & { body?: unknown; answer?: unknown; answerHeaders?: Record<string, string> }): Exchange => ({
    test: 'a test',
    method: 'POST',
    path: '/api/notes/7',
    query: new URLSearchParams(),
    requestHeaders: new Headers({ authorization: 'Bearer t', 'content-type': 'application/json' }),
    requestBody: JSON.stringify(over.body ?? { text: 'hello' }),
    status: 200,
    responseHeaders: new Headers({ 'content-type': 'application/json', ...over.answerHeaders }),
    responseBody: JSON.stringify(over.answer ?? { status: over.status ?? 200, message: 'added', data: { id: 1 } }),
    ...over,
  });

  it('passes a call that matches its operation', () => {
    expect(check(call({}))).toEqual([]);
    expect(check(call({ body: {}, status: 400, answer: { status: 400, message: 'x', data: { fieldErrors: { text: ['x'] } } } }))).toEqual(
      [],
    );
    expect(check(call({ path: '/api/nothing', status: 404, answer: { status: 404, message: 'There is no API path' } }))).toEqual([]);
  });

  it('fails an undocumented operation, an undocumented status and an answer off its schema', () => {
    expect(check(call({ path: '/api/nothing' }))).toEqual([expect.stringContaining('no operation in the document for POST /api/nothing')]);
    expect(check(call({ status: 418, answer: { status: 418, message: 'teapot' } }))).toEqual([
      expect.stringContaining('status 418 is not documented (documented: 200, 400, 401, 403, 404, 413, 429, 500, 503)'),
    ]);
    expect(check(call({ answer: { status: 200, message: 'added', data: { id: 'one' } } }))).toEqual([
      expect.stringContaining('response body: /data/id must be integer'),
    ]);
    expect(check(call({ status: 404, answer: { status: 404, message: 'gone', extra: 1 } }))).toEqual([
      expect.stringContaining('must NOT have additional properties'),
    ]);
    expect(check(call({ status: 429, answer: { status: 429, message: 'Slow down' } }))).toEqual([
      expect.stringContaining('response header Retry-After is missing'),
    ]);
  });

  it('fails a request the server accepted although the document says it is invalid', () => {
    const problems = check(call({ body: { text: '' }, requestHeaders: new Headers({ 'content-type': 'application/json' }) }));
    expect(problems).toEqual([expect.stringContaining('the server accepted a request the document says is invalid')]);
    expect(problems[0]).toContain('/text must NOT have fewer than 1 characters');
    expect(problems[0]).toContain('no bearer token was sent');
    expect(check(call({ path: '/api/notes/seven' }))[0]).toContain('path parameter noteId');
  });
});

describe('buildOpenApiDocument', () => {
  const body = z.object({
    title: z.string().min(1, 'Title is required'),
    pages: z.number().int().default(1),
  });
  const routes = defineRoutes([
    {
      method: 'put',
      path: '/books/:bookId/chapters/:chapter',
      summary: 'Rename a chapter',
      tag: 'Books',
      auth: 'optional',
      request: {
        body,
        params: z.object({ bookId: z.coerce.number().int() }),
        query: z.object({ draft: z.enum(['yes', 'no']).optional(), lang: z.string() }),
      },
      response: z.object({ id: z.number(), title: z.string() }),
      errors: { 409: 'A chapter with that title exists', 429: 'Slow down' },
      handle: async () => ({ message: 'renamed' }),
    },
    {
      method: 'get',
      path: '/books',
      summary: 'List books',
      tag: 'Books',
      auth: 'none',
      handle: async () => ({ message: 'books' }),
    },
  ]);
  const built = buildOpenApiDocument(routes, { publicUrl: 'https://poshan.example/' });
  const rename = op(built, routes[0]!)!;

  it('turns Hono path syntax into OpenAPI templates, with every path parameter', () => {
    expect(Object.keys(built.paths)).toEqual(['/books/{bookId}/chapters/{chapter}', '/books']);
    expect(rename.parameters).toEqual([
      expect.objectContaining({ name: 'bookId', in: 'path', required: true }),
      { name: 'chapter', in: 'path', required: true, schema: { type: 'string' } },
      expect.objectContaining({ name: 'draft', in: 'query', required: false, schema: { type: 'string', enum: ['yes', 'no'] } }),
      expect.objectContaining({ name: 'lang', in: 'query', required: true }),
    ]);
    expect(rename.operationId).toBe(operationId(routes[0]!));
    expect(rename.operationId).toBe('putBooksBookIdChaptersChapter');
  });

  it('describes the request as callers send it (defaults are optional)', () => {
    const schema = rename.requestBody!.content['application/json']!.schema;
    expect(schema.properties.title).toEqual({ type: 'string', minLength: 1 });
    expect(schema.required).toEqual(['title']);
    expect(schema.$schema).toBeUndefined();
  });

  it('wraps the response in the envelope and lists the route’s errors', () => {
    expect(rename.responses['200'].content['application/json'].schema.properties.data.required).toEqual(['id', 'title']);
    expect(Object.keys(rename.responses)).toEqual(['200', '400', '404', '409', '413', '429', '500', '503']);
    expect(rename.responses['409'].description).toBe('A chapter with that title exists');
    expect(rename.responses['429'].headers['Retry-After']).toBeDefined();
    expect(rename.security).toEqual([{}, { bearerAuth: [] }]);
  });

  it('leaves a public GET without input free of 400 and security', () => {
    const list = op(built, routes[1]!)!;
    expect(Object.keys(list.responses)).toEqual(['200', '500', '503']);
    expect(list.security).toEqual([]);
    expect(built.servers).toEqual([{ url: 'https://poshan.example/api' }]);
  });
});
