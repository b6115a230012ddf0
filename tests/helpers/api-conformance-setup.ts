import { afterAll } from 'vitest';
import { openApiDocument } from '../../server/rest/openapi.js';
import { restRoutes } from '../../server/rest/routes.js';
import { recordApiCalls, takeApiCalls } from './api-recorder.js';
import { conformanceChecker } from './openapi-conformance.js';

/**
 * Every REST call an integration test makes is checked against the OpenAPI
 * document once the file is done: an undocumented operation or status, or an
 * answer or accepted request that does not match its schema, fails the file.
 * The document is the one GET /api/openapi.json serves, built in process.
 */
recordApiCalls();

afterAll(async () => {
  const calls = await takeApiCalls();
  if (calls.length === 0) return;
  const { check } = conformanceChecker(openApiDocument(restRoutes));
  // The same departure made by several calls of one test is told once.
  const problems = [...new Set(calls.flatMap(check))];
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} REST call(s) do not match /api/openapi.json (server/rest/openapi.ts builds it from the route list):\n- ${problems.join('\n- ')}`,
    );
  }
});
