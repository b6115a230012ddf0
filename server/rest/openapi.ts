import { type ZodType, z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { BRAND } from '../brand.js';
import type { RestRoute } from './route.js';

/**
 * GET /api/openapi.json: OpenAPI 3.1 generated from the REST route list and
 * the same zod schemas the procedures validate with. Nothing here describes a
 * path by hand: a new route in server/rest/routes.ts appears on its own.
 */

type JsonSchema = { [key: string]: unknown };
type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
  };
};

/** Hono's '/x/:id' is OpenAPI's '/x/{id}'. */
export const toOpenApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pathParamNames = (honoPath: string) => [...honoPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

/** 'post' + '/client/ratings/add-rating' → 'postClientRatingsAddRating'. */
export function operationId(route: Pick<RestRoute, 'method' | 'path'>): string {
  const words = route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return route.method + words.join('');
}

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { type: 'integer', description: 'Equal to the HTTP status.' },
    message: { type: 'string', description: 'What went wrong, written for the person who reads it.' },
  },
};

const validationErrorSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'message', 'data'],
  properties: {
    status: { type: 'integer', const: 400 },
    message: { type: 'string', description: 'The first failing field’s message, e.g. "Email is required".' },
    data: {
      type: 'object',
      required: ['fieldErrors'],
      properties: {
        fieldErrors: {
          type: 'object',
          description: 'Every failing field (dotted path) with its messages.',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

const errorContent = (schemaName: 'Error' | 'ValidationError') => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } },
});

const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
};

/** The generic error answers; a route's own `errors` add to them or reword them. */
const standardResponses: Record<string, { name: string; description: string; schema: 'Error' | 'ValidationError'; headers?: unknown }> = {
  '400': { name: 'BadRequest', description: 'The input is not valid (or the body is not JSON).', schema: 'ValidationError' },
  '401': { name: 'Unauthorized', description: 'No bearer token, or it has expired or been revoked.', schema: 'Error' },
  '403': {
    name: 'Forbidden',
    description: 'The signed-in user may not do this, e.g. a client naming another client’s id.',
    schema: 'Error',
  },
  '404': { name: 'NotFound', description: 'The thing named does not exist (or belongs to someone else).', schema: 'Error' },
  '409': { name: 'Conflict', description: 'The request conflicts with what already exists.', schema: 'Error' },
  '429': { name: 'TooManyRequests', description: 'Too many attempts; see Retry-After.', schema: 'Error', headers: retryAfterHeader },
};

class SchemaConverter {
  readonly defs: Record<string, JsonSchema> = {};

  /** A zod schema as JSON Schema 2020-12; shared definitions move to components.schemas. */
  convert(schema: ZodType, io: 'input' | 'output', owner: string): JsonSchema {
    const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', cycles: 'ref' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = raw;
    const rename = (name: string) => (name.startsWith('__') ? `${owner}${name}` : name);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) =>
            k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
              ? [k, `#/components/schemas/${rename(v.slice('#/$defs/'.length))}`]
              : [k, rewrite(v)],
          ),
        );
      }
      return value;
    };
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.defs[rename(name)] = rewrite(def) as JsonSchema;
    }
    return rewrite(rest) as JsonSchema;
  }

  /** Query or path parameters from an object schema's properties. */
  parameters(schema: ZodType | undefined, where: 'query' | 'path', owner: string, names: string[] = []) {
    const params: Record<string, { name: string; in: string; required: boolean; schema: unknown; description?: string }> = {};
    if (schema) {
      const json = this.convert(schema, 'input', owner);
      const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, prop] of Object.entries(properties)) {
        const { description, ...propSchema } = prop;
        params[name] = {
          name,
          in: where,
          required: where === 'path' || required.has(name),
          schema: propSchema,
          ...(typeof description === 'string' ? { description } : {}),
        };
      }
    }
    for (const name of names) params[name] ??= { name, in: where, required: true, schema: { type: 'string' } };
    return Object.values(params);
  }
}

function operation(route: RestRoute, converter: SchemaConverter) {
  const id = operationId(route);
  const successStatus = route.successStatus ?? 200;
  const extras = Object.entries(route.responseExtra ?? {}).filter(([key]) => !['status', 'message', 'data'].includes(key));
  const envelope: JsonSchema = {
    type: 'object',
    required: ['status', 'message', ...(route.response ? ['data'] : []), ...extras.map(([key]) => key)],
    properties: {
      status: { type: 'integer', const: successStatus },
      message: { type: 'string' },
      ...(route.response ? { data: converter.convert(route.response, 'output', id) } : {}),
      ...Object.fromEntries(extras.map(([key, schema]) => [key, converter.convert(schema, 'output', id)])),
    },
  };

  const responses: Record<string, unknown> = {
    [String(successStatus)]: { description: route.summary, content: { 'application/json': { schema: envelope } } },
  };
  const errorStatuses = new Set<string>();
  // Invalid input: anything with a request schema, and any body that is not JSON.
  if (route.request || route.method !== 'get') errorStatuses.add('400');
  if (route.auth === 'required') {
    errorStatuses.add('401');
    errorStatuses.add('403');
  }
  for (const status of Object.keys(route.errors ?? {})) errorStatuses.add(status);
  for (const status of [...errorStatuses].sort()) {
    const own = route.errors?.[Number(status)];
    const standard = standardResponses[status];
    if (standard && !own) responses[status] = { $ref: `#/components/responses/${standard.name}` };
    else
      responses[status] = {
        description: own ?? standard?.description ?? 'Error',
        content: errorContent(status === '400' ? 'ValidationError' : 'Error'),
        ...(status === '429' ? { headers: retryAfterHeader } : {}),
      };
  }

  const parameters = [
    ...converter.parameters(route.request?.params, 'path', id, pathParamNames(route.path)),
    ...converter.parameters(route.request?.query, 'query', id),
  ];

  return {
    operationId: id,
    summary: route.summary,
    tags: [route.tag],
    ...(route.auth === 'required' ? { security: [{ bearerAuth: [] }] } : {}),
    ...(route.auth === 'optional' ? { security: [{}, { bearerAuth: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.request?.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: converter.convert(route.request.body, 'input', id) } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(routes: readonly RestRoute[], opts: { publicUrl?: string } = {}): OpenApiDocument {
  const converter = new SchemaConverter();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const key = toOpenApiPath(route.path);
    paths[key] ??= {};
    paths[key][route.method] = operation(route, converter);
  }
  const base = opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, '')}/api` : '/api';
  return {
    openapi: '3.1.0',
    info: {
      title: `${BRAND.name} API`,
      version: pkg.version,
      description:
        'The REST adapters of the app (the same procedures are served over tRPC at /trpc). Every answer is the JSON ' +
        'envelope { status, message, data? } with status equal to the HTTP status. Sign in with POST /auth/sign-in and ' +
        'send the token as `Authorization: Bearer <token>`.',
    },
    servers: [{ url: base }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The session token from sign-in (valid about an hour; refresh with /auth/refresh-token).',
        },
      },
      schemas: { Error: errorSchema, ValidationError: validationErrorSchema, ...converter.defs },
      responses: Object.fromEntries(
        Object.values(standardResponses).map((r) => [
          r.name,
          { description: r.description, content: errorContent(r.schema), ...(r.headers ? { headers: r.headers } : {}) },
        ]),
      ),
    },
  };
}

const cache = new WeakMap<readonly RestRoute[], Map<string, OpenApiDocument>>();

/** The document for a route list, built once per list and base URL. */
export function openApiDocument(routes: readonly RestRoute[], opts: { publicUrl?: string } = {}): OpenApiDocument {
  const byUrl = cache.get(routes) ?? new Map<string, OpenApiDocument>();
  cache.set(routes, byUrl);
  const key = opts.publicUrl ?? '';
  const doc = byUrl.get(key) ?? buildOpenApiDocument(routes, opts);
  byUrl.set(key, doc);
  return doc;
}
