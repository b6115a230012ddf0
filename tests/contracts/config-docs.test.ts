import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CONFIG_DOC, configurationDoc, ENV_EXAMPLE, envExample } from '../../scripts/config-docs.js';
import { documentedVariables } from '../../server/env.js';

it('docs/configuration.md and .env.example are what server/env.ts generates (npm run docs:config)', () => {
  expect(readFileSync(CONFIG_DOC, 'utf8')).toBe(configurationDoc());
  expect(readFileSync(ENV_EXAMPLE, 'utf8')).toBe(envExample());
});

it('documents every variable the server reads, each with a description', () => {
  const variables = documentedVariables();
  expect(variables.length).toBeGreaterThan(40);
  for (const v of variables) expect(v.description.length, v.name).toBeGreaterThan(10);
  // Every variable server/env.ts names appears in the generated files.
  for (const v of variables) expect(configurationDoc()).toContain(`\`${v.name}\``);
});
