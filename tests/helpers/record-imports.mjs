// Preloaded with `--import` into a server process by tests/integration/tracing.test.ts:
// writes every module URL the process resolves through ES imports to the file named by
// RECORD_IMPORTS_TO, one per line, so the test can tell which packages were loaded.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
const file = ${JSON.stringify(process.env.RECORD_IMPORTS_TO ?? '')};
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (file) appendFileSync(file, result.url + '\\n');
  return result;
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
