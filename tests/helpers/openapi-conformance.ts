import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Exchange } from './api-recorder.js';

/**
 * Checks recorded REST calls against the OpenAPI document the server serves,
 * as a validating proxy in front of it would (Prism's `proxy --errors`):
 * - the call names an operation of the document (anything else must have been
 *   answered 404 or 405, the server's own "no such path");
 * - the answer's status is one the operation documents, with its content type,
 *   required headers and body schema;
 * - the request matches the document (path and query parameters, body, the
 *   security scheme); a request that does not may only be answered 4xx — if the
 *   server accepts it, the document is stricter than the server.
 * Bodies and parameters are validated with Ajv in JSON Schema 2020-12 mode
 * (OpenAPI 3.1's dialect), against the document's own schemas and $refs.
 */

type Json = Record<string, any>;
type Operation = {
  path: string;
  method: string;
  match: RegExp;
  pointer: string;
  op: Json;
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'openapi.json';
const JSON_TYPE = /^application\/json(;|$)/i;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function conformanceChecker(doc: Json) {
  const base = new URL(doc.servers?.[0]?.url ?? '/', 'http://server.invalid').pathname.replace(/\/$/, '');
  const strict = new Ajv2020({ strict: false, allErrors: true });
  // Parameters and headers travel as text: coerce them to the schema's type first, as OpenAPI's serialization says.
  const coercing = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
  for (const ajv of [strict, coercing]) {
    addFormats(ajv);
    ajv.addSchema(doc, DOCUMENT_ID, undefined, false);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ajv: Ajv2020, pointer: string) => {
    const key = `${ajv === coercing ? 'c' : 's'}${pointer}`;
    let fn = compiled.get(key);
    if (!fn) {
      const ref = { $ref: `${DOCUMENT_ID}#${pointer}` };
      // Ajv coerces a value only inside a parent: text values are checked as { value }.
      fn = ajv.compile(ajv === coercing ? { type: 'object', properties: { value: ref } } : ref);
      compiled.set(key, fn);
    }
    return fn;
  };
  const resolve = (value: Json): Json => {
    if (typeof value?.$ref !== 'string') return value;
    const target = (value.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<any>((node, k) => node?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return resolve(target);
  };

  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
    for (const [method, op] of Object.entries<Json>(methods)) {
      operations.push({
        path,
        method,
        match: new RegExp(`^${base}${pattern}$`),
        pointer: `/paths/${escapePointer(path)}/${method}`,
        op,
      });
    }
  }

  const findOperation = (method: string, path: string) => {
    const candidates = operations.filter((o) => o.match.test(path));
    return { operation: candidates.find((o) => o.method === method.toLowerCase()), pathKnown: candidates.length > 0 };
  };

  /** Where the request departs from the document: empty when a generated client could have sent it. */
  function requestProblems(o: Operation, e: Exchange): string[] {
    const problems: string[] = [];
    const values = o.match.exec(e.path)!.slice(1);
    const names = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    (o.op.parameters ?? []).forEach((raw: Json, i: number) => {
      const param = resolve(raw);
      const value = param.in === 'path' ? values[names.indexOf(param.name)] : param.in === 'query' ? e.query.get(param.name) : undefined;
      if (param.in !== 'path' && param.in !== 'query') return;
      if (value === undefined || value === null) {
        if (param.required) problems.push(`${param.in} parameter ${param.name} is required`);
        return;
      }
      const check = validator(coercing, `${o.pointer}/parameters/${i}/schema`);
      const holder = { value: param.in === 'path' ? decodeURIComponent(value) : value };
      if (!check(holder)) problems.push(`${param.in} parameter ${param.name}: ${describeErrors(check.errors)}`);
    });

    const requestBody = o.op.requestBody ? resolve(o.op.requestBody) : undefined;
    const hasBody = e.requestBody !== undefined && e.requestBody !== '';
    if (hasBody && !requestBody) problems.push('a body was sent, but the operation takes none');
    if (!hasBody && requestBody?.required) problems.push('the operation requires a body, and none was sent');
    const multipart = requestBody?.content?.['multipart/form-data'];
    if (hasBody && multipart) {
      // A file upload: the parts the document requires must be there (their bytes are not JSON to validate).
      const type = e.requestHeaders.get('content-type') ?? '';
      if (!/^multipart\/form-data\s*;/i.test(type))
        problems.push(`body sent as "${type || 'no content type'}", the document says multipart/form-data`);
      for (const part of (resolve(multipart.schema).required ?? []) as string[]) {
        if (!e.requestBody!.includes(`name="${part}"`)) problems.push(`the form has no part named "${part}"`);
      }
    } else if (hasBody && requestBody) {
      const type = e.requestHeaders.get('content-type') ?? '';
      if (!JSON_TYPE.test(type)) problems.push(`body sent as "${type || 'no content type'}", the document says application/json`);
      const parsed = parseJson(e.requestBody!);
      if (!parsed.ok) problems.push('the body is not JSON');
      else {
        const check = validator(strict, `${o.pointer}/requestBody/content/application~1json/schema`);
        if (!check(parsed.value)) problems.push(`body: ${describeErrors(check.errors)}`);
      }
    }

    const security: Json[] | undefined = o.op.security ?? doc.security;
    const bearer = /^Bearer \S+/i.test(e.requestHeaders.get('authorization') ?? '');
    if (security?.length && !security.some((s) => Object.keys(s).length === 0) && !bearer) problems.push('no bearer token was sent');
    return problems;
  }

  /** Where the answer departs from what the operation documents. */
  function responseProblems(o: Operation, e: Exchange): string[] {
    const status = String(e.status);
    const declared = o.op.responses[status] ? status : o.op.responses.default ? 'default' : undefined;
    if (!declared) return [`status ${status} is not documented (documented: ${Object.keys(o.op.responses).join(', ')})`];
    const response = resolve(o.op.responses[declared]);
    const pointer = o.op.responses[declared].$ref
      ? (o.op.responses[declared].$ref as string).slice(1)
      : `${o.pointer}/responses/${declared}`;
    const problems: string[] = [];
    for (const [name, raw] of Object.entries<Json>(response.headers ?? {})) {
      const header = resolve(raw);
      const value = e.responseHeaders.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const check = validator(coercing, `${pointer}/headers/${escapePointer(name)}/schema`);
      if (!check({ value })) problems.push(`header ${name}: ${describeErrors(check.errors)}`);
    }
    const content = response.content as Json | undefined;
    if (!content) return problems;
    const type = e.responseHeaders.get('content-type') ?? '';
    const mediaType = Object.keys(content).find((t) => type.toLowerCase().startsWith(t.toLowerCase()));
    if (!mediaType) return [...problems, `answered as "${type}", documented as ${Object.keys(content).join(', ')}`];
    if (!JSON_TYPE.test(mediaType)) return problems;
    const parsed = parseJson(e.responseBody);
    if (!parsed.ok) return [...problems, 'the body is not JSON'];
    const check = validator(strict, `${pointer}/content/${escapePointer(mediaType)}/schema`);
    if (!check(parsed.value)) problems.push(`body: ${describeErrors(check.errors)}`);
    return problems;
  }

  /** Every way the exchange departs from the document, each a line a person can act on. */
  function check(e: Exchange): string[] {
    const label = `${e.method} ${e.path}${e.query.size ? `?${e.query}` : ''} → ${e.status} (in "${e.test}")`;
    const { operation, pathKnown } = findOperation(e.method, e.path);
    if (!operation) {
      // The server's own answer to a path or method it does not serve is fine; anything else is an undocumented operation.
      const refused = e.status === 404 || (pathKnown && e.status === 405);
      return refused ? [] : [`${label}: no operation in the document for ${e.method} ${e.path}`];
    }
    const problems = responseProblems(operation, e).map((p) => `${label}: response ${p}`);
    const invalid = requestProblems(operation, e);
    if (invalid.length && e.status < 400) {
      problems.push(`${label}: the server accepted a request the document says is invalid: ${invalid.join('; ')}`);
    }
    return problems;
  }

  return { check, findOperation };
}
