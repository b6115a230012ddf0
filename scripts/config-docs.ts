import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentedVariables } from '../server/env.js';

/**
 * docs/configuration.md and .env.example are generated from the schema that reads the environment
 * (server/env.ts), so the two cannot drift from what the server accepts: `npm run docs:config` writes
 * them, and tests/contracts/config-docs.test.ts fails when they are not current.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONFIG_DOC = path.join(root, 'docs/configuration.md');
export const ENV_EXAMPLE = path.join(root, '.env.example');

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function configurationDoc(): string {
  const rows = documentedVariables().map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.description)} |`);
  return [
    '# Configuration',
    '',
    '<!-- Generated from server/env.ts by `npm run docs:config`: edit the descriptions there. -->',
    '',
    'Everything is read from the environment, once, by `server/env.ts` (zod). A bad value stops start-up',
    'with exit code 1 and a message naming the variable, e.g. `PORT: must be a port number`. Empty values',
    'count as unset. [`.env.example`](../.env.example) lists them all; the app does not read `.env` files itself.',
    '',
    '| Variable | Default | Meaning |',
    '| --- | --- | --- |',
    ...rows,
    '',
    "Tests read `TEST_DATABASE_URL`, `TEST_DB`, `TEST_TEMPLATE_DB`, `CHROMIUM_PATH` and `SHOTS_DIR` (see the README's Testing).",
    '',
  ].join('\n');
}

/** Markdown to plain text for a shell comment: code spans and links lose their marks. */
const plain = (md: string) => md.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]+)\]\([^)]+\)/g, '$1');

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function envExample(): string {
  const out = [
    '# Generated from server/env.ts by `npm run docs:config` (docs/configuration.md says the same).',
    '# Copy to .env (never commit it) or export in your shell. All are optional in development.',
  ];
  for (const v of documentedVariables()) {
    out.push('');
    for (const line of wrap(plain(v.description), 110)) out.push(`# ${line}`);
    out.push(`# ${v.name}=${v.example}`);
  }
  return `${out.join('\n')}\n`;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  for (const [file, text] of [
    [CONFIG_DOC, configurationDoc()],
    [ENV_EXAMPLE, envExample()],
  ] as const) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current === text) continue;
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(root, file)}`);
  }
}
