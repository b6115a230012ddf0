import { type ZodType, z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { BRAND } from '../brand.js';
import { JSON_BODY_LIMIT } from '../http/body-limit.js';
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

const fieldErrorsData: JsonSchema = {
  type: 'object',
  required: ['fieldErrors'],
  additionalProperties: false,
  properties: {
    fieldErrors: {
      type: 'object',
      description: 'Every failing field (dotted path, e.g. "weight") with its messages.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

const clockSchema: JsonSchema = {
  type: 'object',
  required: ['date', 'time', 'zone'],
  properties: { date: { type: 'string' }, time: { type: 'string' }, zone: { type: 'string' } },
};

/** A 409 for a time taken meanwhile (appointments): the next free slots instead of field errors. */
const nextSlotsData: JsonSchema = {
  type: 'object',
  required: ['nextSlots'],
  additionalProperties: false,
  properties: {
    nextSlots: {
      type: 'array',
      description: 'The next free slots after the one asked for, soonest first.',
      items: {
        type: 'object',
        required: ['start', 'end', 'local', 'india'],
        properties: {
          start: { type: 'string', format: 'date-time' },
          end: { type: 'string', format: 'date-time' },
          local: clockSchema,
          india: clockSchema,
        },
      },
    },
  },
};

/** The envelope of every error (server/http/envelope.ts: errorEnvelope). */
const errorSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'message'],
  additionalProperties: false,
  properties: {
    status: { type: 'integer', description: 'Equal to the HTTP status.' },
    message: { type: 'string', description: 'What went wrong, written for the person who reads it.' },
    data: { anyOf: [{ $ref: '#/components/schemas/FieldErrors' }, { $ref: '#/components/schemas/NextSlots' }] },
  },
};

const validationErrorSchema: JsonSchema = {
  ...errorSchema,
  description:
    'Invalid input: `message` is the first failing field’s message, e.g. "Email is required", and `data.fieldErrors` lists every ' +
    'failing field. A body that is not JSON at all has no `data`.',
  properties: {
    ...(errorSchema.properties as JsonSchema),
    message: { type: 'string', description: 'The first failing field’s message, e.g. "Email is required".' },
  },
};

const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 1 } },
};

type ErrorAnswer = { name: string; description: string; schema: 'Error' | 'ValidationError'; retryAfter?: true };

/**
 * Every error status a REST route can answer, with the description used
 * unless the route words its own. Which of them an operation lists is
 * decided by `errorStatuses` below from the route's declaration.
 */
export const ERROR_ANSWERS: Record<number, ErrorAnswer> = {
  400: {
    name: 'BadRequest',
    description: 'The input is not valid (see data.fieldErrors), or the body is not JSON.',
    schema: 'ValidationError',
  },
  401: { name: 'Unauthorized', description: 'No bearer token, or it has expired or been revoked.', schema: 'Error' },
  403: {
    name: 'Forbidden',
    description: 'The signed-in user may not do this, e.g. a client naming another client’s id.',
    schema: 'Error',
  },
  404: { name: 'NotFound', description: 'The thing named does not exist (or belongs to someone else).', schema: 'Error' },
  409: { name: 'Conflict', description: 'The request conflicts with what already exists.', schema: 'Error' },
  413: {
    name: 'PayloadTooLarge',
    description: `The request body is larger than the server accepts (${JSON_BODY_LIMIT / 1024} KB).`,
    schema: 'Error',
  },
  422: {
    name: 'RepeatDiffers',
    description:
      'The idempotency key was used before with different details (the fields that differ are in data.fieldErrors): send the new request with a new key.',
    schema: 'ValidationError',
  },
  429: { name: 'TooManyRequests', description: 'Too many attempts; see Retry-After.', schema: 'Error', retryAfter: true },
  500: {
    name: 'InternalError',
    description: 'Something went wrong on the server; the details are in its log, never in the answer.',
    schema: 'Error',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'The service is briefly unavailable (its database cannot be reached); try again after Retry-After.',
    schema: 'Error',
    retryAfter: true,
  },
};

/**
 * The error statuses a route can answer, inferred from its declaration so they
 * cannot drift from what the server does:
 * - 400 when it takes any input (a body is always parsed as JSON, except on GET);
 * - 401 and 403 when it requires a session (auth/guards.ts refuses other people’s ids);
 * - 404 when its path names something (a path parameter), or a dietitian names the client it acts for;
 * - 413 when it reads a body (server/http/body-limit.ts bounds every one);
 * - 500 and 503 always (any route can fail, and any can meet a database outage);
 * - 422 when a repeat is answered with the first result (`repeatAnswer`): its key sent again with other details;
 * - and whatever the route declares in `errors` (409, a rate limit’s 429, a 404 from its input...).
 */
export function errorStatuses(route: RestRoute): number[] {
  const statuses = new Set<number>([500, 503]);
  const readsBody = route.method !== 'get';
  if (route.request || readsBody) statuses.add(400);
  if (route.auth === 'required') {
    statuses.add(401);
    statuses.add(403);
  }
  if (pathParamNames(route.path).length > 0 || route.clientData) statuses.add(404);
  if (readsBody) statuses.add(413);
  if (route.repeatAnswer) statuses.add(422);
  for (const status of Object.keys(route.errors ?? {})) statuses.add(Number(status));
  return [...statuses].sort((a, b) => a - b);
}

/** The error envelope of one status: `status` in the body is that status. */
const errorContent = (status: number, schemaName: 'Error' | 'ValidationError') => ({
  'application/json': {
    schema: { allOf: [{ $ref: `#/components/schemas/${schemaName}` }, { properties: { status: { const: status } } }] },
  },
});

function errorResponse(status: number, description?: string) {
  const answer = ERROR_ANSWERS[status];
  return {
    description: description ?? answer?.description ?? 'Error',
    content: errorContent(status, answer?.schema ?? 'Error'),
    ...(answer?.retryAfter ? { headers: retryAfterHeader } : {}),
  };
}

/** Text that a preprocessed number field also takes (numberField, idField...: forms and query strings send text). */
const NUMERIC_TEXT: JsonSchema = { type: 'string', pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*$', description: 'The same number, as text.' };

/** What a field takes when absent, seen through preprocessing and pipes: undefined when the field is required. */
function inputOptionality(schema: z.core.$ZodType): z.core.$ZodType['_zod']['optin'] {
  const def = schema._zod.def as z.core.$ZodTypeDef & { in?: z.core.$ZodType; out?: z.core.$ZodType; innerType?: z.core.$ZodType };
  if (def.type === 'pipe' && def.in && def.out) return inputOptionality(def.in._zod.traits.has('$ZodTransform') ? def.out : def.in);
  if (def.type === 'catch' && def.innerType) return inputOptionality(def.innerType);
  return schema._zod.optin;
}

/** What a preprocessed yes/no field also takes: the form's radio values '1'/'0' and 'true'/'false' as text, or 1/0. */
const BOOLEAN_TEXT: JsonSchema = {
  enum: ['1', '0', 'true', 'false', 1, 0],
  description: 'The same answer as the form sends it: 1 or 0, true or false as text.',
};

const BLANK_TEXT: JsonSchema = { type: 'string', pattern: '^\\s*$', description: 'Blank: the same as not given.' };

const isNumeric = (json: JsonSchema): boolean =>
  json.type === 'number' ||
  json.type === 'integer' ||
  (Array.isArray(json.anyOf) && json.anyOf.length > 0 && (json.anyOf as JsonSchema[]).every(isNumeric));

/**
 * Input schemas as the server really takes them: a preprocessed number also
 * takes its text, and a preprocessed field that is required is listed as
 * required (zod reads both from the outermost schema only).
 */
function describeInput(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema }) {
  const def = ctx.zodSchema._zod.def as z.core.$ZodTypeDef & { in?: z.core.$ZodType; shape?: Record<string, z.core.$ZodType> };
  if (def.type === 'object' && def.shape) {
    const required = Object.entries(def.shape)
      .filter(([, field]) => inputOptionality(field) === undefined)
      .map(([key]) => key);
    if (required.length) ctx.jsonSchema.required = required;
  }
  const out = (def as { out?: z.core.$ZodType }).out;
  if (def.type !== 'pipe' || !def.in?._zod.traits.has('$ZodTransform') || !out) return;
  // A preprocessed field reads text as forms and query strings send it: a number's or a yes/no's text, and blank for "not given".
  const alternatives = [
    ...(isNumeric(ctx.jsonSchema) ? [NUMERIC_TEXT] : []),
    ...(ctx.jsonSchema.type === 'boolean' ? [BOOLEAN_TEXT] : []),
    ...(out._zod.optin !== undefined ? [BLANK_TEXT] : []),
  ];
  if (alternatives.length === 0) return;
  const own = { ...ctx.jsonSchema };
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  ctx.jsonSchema.anyOf = [own, ...alternatives];
}

class SchemaConverter {
  readonly defs: Record<string, JsonSchema> = {};

  /** A zod schema as JSON Schema 2020-12; shared definitions move to components.schemas. */
  convert(schema: ZodType, io: 'input' | 'output', owner: string): JsonSchema {
    const raw = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
      ...(io === 'input' ? { override: describeInput } : {}),
    }) as JsonSchema;
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

/** Who may call: a session is required, optional (anonymous callers too), or not used at all. */
const SECURITY: Record<RestRoute['auth'], Record<string, string[]>[]> = {
  required: [{ bearerAuth: [] }],
  optional: [{}, { bearerAuth: [] }],
  none: [],
};

function operation(route: RestRoute, converter: SchemaConverter) {
  const id = operationId(route);
  const successStatus = route.successStatus ?? 200;
  const extras = Object.entries(route.responseExtra ?? {}).filter(([key]) => !['status', 'message', 'data'].includes(key));
  const data = route.response ? converter.convert(route.response, 'output', id) : undefined;
  const envelope = (status: number): JsonSchema => ({
    type: 'object',
    required: ['status', 'message', ...(data ? ['data'] : []), ...extras.map(([key]) => key)],
    additionalProperties: false,
    properties: {
      status: { type: 'integer', const: status },
      message: { type: 'string' },
      ...(data ? { data } : {}),
      ...Object.fromEntries(extras.map(([key, schema]) => [key, converter.convert(schema, 'output', id)])),
    },
  });

  const binary = { type: 'string', format: 'binary' };
  const successContent = route.download
    ? Object.fromEntries(route.download.contentTypes.map((type) => [type, { schema: binary }]))
    : { 'application/json': { schema: envelope(successStatus) } };
  const responses: Record<string, unknown> = {
    [String(successStatus)]: { description: route.summary, content: successContent },
    ...(route.repeatAnswer && successStatus !== 200
      ? { 200: { description: route.repeatAnswer, content: { 'application/json': { schema: envelope(200) } } } }
      : {}),
  };
  for (const status of errorStatuses(route)) {
    const own = route.errors?.[status];
    const standard = ERROR_ANSWERS[status];
    responses[String(status)] = standard && !own ? { $ref: `#/components/responses/${standard.name}` } : errorResponse(status, own);
  }

  const files = route.request?.files;
  const body = route.request?.body ? converter.convert(route.request.body, 'input', id) : undefined;
  const parameters = [
    ...converter.parameters(route.request?.params, 'path', id, pathParamNames(route.path)),
    ...converter.parameters(route.request?.query, 'query', id),
  ];

  return {
    operationId: id,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(files
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: Object.keys(files),
                  properties: Object.fromEntries(Object.entries(files).map(([name, description]) => [name, { ...binary, description }])),
                },
              },
            },
          },
        }
      : {}),
    ...(body
      ? {
          requestBody: {
            // An absent body is read as {}: it may be left out when no field is required.
            required: Array.isArray(body.required) && body.required.length > 0,
            content: { 'application/json': { schema: body } },
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
      schemas: {
        Error: errorSchema,
        ValidationError: validationErrorSchema,
        FieldErrors: fieldErrorsData,
        NextSlots: nextSlotsData,
        ...converter.defs,
      },
      responses: Object.fromEntries(Object.entries(ERROR_ANSWERS).map(([status, answer]) => [answer.name, errorResponse(Number(status))])),
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
