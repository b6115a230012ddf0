import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { buildOpenApiDocument, operationId, toOpenApiPath } from '../../server/rest/openapi.js';
import { defineRoutes, type RestRoute } from '../../server/rest/route.js';
import { restRoutes } from '../../server/rest/routes.js';
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
        expect(operation.security, label).toBeUndefined();
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
    expect(validation.properties.data.properties.fieldErrors.additionalProperties).toEqual({ type: 'array', items: { type: 'string' } });
    expect(Object.keys(doc.components.responses)).toEqual(
      expect.arrayContaining(['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'TooManyRequests']),
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

  it('documents the 400 the server really sends', async () => {
    const user = await server.user();
    const res = await server.request('POST', '/api/updated-weights/add-updated-weight', { token: user.token, body: {} });
    expect(res.status).toBe(400);
    const schema = doc.components.schemas.ValidationError as any;
    expect(Object.keys(res.body).sort()).toEqual([...schema.required].sort());
    expect(res.body.data.fieldErrors.weight).toEqual([expect.any(String)]);
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
    expect(Object.keys(rename.responses).sort()).toEqual(['200', '400', '409', '429']);
    expect(rename.responses['409'].description).toBe('A chapter with that title exists');
    expect(rename.responses['429'].headers['Retry-After']).toBeDefined();
    expect(rename.security).toEqual([{}, { bearerAuth: [] }]);
  });

  it('leaves a GET without input free of 400 and security', () => {
    const list = op(built, routes[1]!)!;
    expect(Object.keys(list.responses)).toEqual(['200']);
    expect(list.security).toBeUndefined();
    expect(built.servers).toEqual([{ url: 'https://poshan.example/api' }]);
  });
});
