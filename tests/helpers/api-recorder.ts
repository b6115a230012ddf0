import { expect } from 'vitest';

/** One REST call as it went over the wire: what a validating proxy in front of the server would have seen. */
export type Exchange = {
  /** The test that made the call, for the failure message. */
  test: string;
  method: string;
  /** Path without the query, e.g. '/api/auth/sign-in'. */
  path: string;
  query: URLSearchParams;
  requestHeaders: Headers;
  /** The body text as sent; undefined when there was none. */
  requestBody: string | undefined;
  status: number;
  responseHeaders: Headers;
  responseBody: string;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/**
 * Served beside the REST routes, not operations of the document: the document itself, and the signed
 * PDF links (server/diet-plan/http.ts, server/payments/http.ts), binary downloads.
 */
const OUTSIDE_THE_JSON_API = /^\/api\/(openapi\.json$|diet-plan\/pdf\/|invoice-files\/)/;
const recorded: Promise<Exchange | null>[] = [];
let installed = false;

/**
 * Wraps the global fetch so that every call a test makes to a local server's
 * /api/ paths is recorded (its request and its answer, read from a copy, so the
 * test reads its own as before). The calls are checked against the OpenAPI
 * document after the file (tests/helpers/api-conformance-setup.ts).
 */
export function recordApiCalls() {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!LOOPBACK.has(url.hostname) || !url.pathname.startsWith('/api/') || OUTSIDE_THE_JSON_API.test(url.pathname)) {
      return original(input, init);
    }
    const test = expect.getState().currentTestName ?? '(outside a test)';
    const requestBody = request.body ? await request.clone().text() : undefined;
    const response = await original(input, init);
    recorded.push(
      response
        .clone()
        .text()
        .then(
          (responseBody) => ({
            test,
            method: request.method,
            path: url.pathname,
            query: url.searchParams,
            requestHeaders: request.headers,
            requestBody,
            status: response.status,
            responseHeaders: response.headers,
            responseBody,
          }),
          // A body the test aborted or the server cut short is not an answer to check.
          () => null,
        ),
    );
    return response;
  };
}

/** The calls recorded since the last take, in the order they were made. */
export async function takeApiCalls(): Promise<Exchange[]> {
  const all = await Promise.all(recorded.splice(0));
  return all.filter((e): e is Exchange => e !== null);
}
