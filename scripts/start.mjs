#!/usr/bin/env node
// `npm start`: builds the web client when it is missing or out of date, then
// runs the server (TypeScript through tsx, in this process, so signals reach it
// directly). Works on a fresh clone right after `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * Why dist/ must be rebuilt, or null when it is newer than every input: the
 * client's sources, index.html, public/, the build config, the lockfile, and
 * the server files the client imports (shared zod schemas, brand), found by
 * following the imports from src/.
 */
function clientStaleReason() {
  const index = path.join(root, 'dist/index.html');
  if (!existsSync(index)) return 'dist/index.html is missing';
  const builtAt = statSync(index).mtimeMs;
  const inputs = [
    ...filesUnder(path.join(root, 'src')),
    ...filesUnder(path.join(root, 'public')),
    ...['index.html', 'vite.config.ts', 'package-lock.json'].map((f) => path.join(root, f)).filter(existsSync),
  ];
  inputs.push(...serverFilesImportedBy(inputs.filter((f) => /\.(ts|tsx)$/.test(f))));
  const newer = inputs.find((f) => statSync(f).mtimeMs > builtAt);
  return newer ? `${path.relative(root, newer)} changed since the last build` : null;
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(p) : [p];
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function resolveSource(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function serverFilesImportedBy(entryFiles) {
  const serverDir = path.join(root, 'server') + path.sep;
  const seen = new Set();
  const queue = [...entryFiles];
  while (queue.length > 0) {
    const file = queue.pop();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveSource(file, match[1] ?? match[2]);
      if (target?.startsWith(serverDir) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

// ---- start-up ----

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.warn(`Poshan needs Node 20.19 or newer; this is Node ${process.versions.node}.`);
  process.exit(1);
}

// TypeScript for the rest of this process (the server is not compiled ahead of time).
const { register } = await import('tsx/esm/api');
register();

// A bad setting should stop us before a long client build, not after it.
const { loadConfig, ConfigError } = await import(pathToFileURL(path.join(root, 'server/env.ts')).href);
try {
  loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.warn(err.message);
    process.exit(1);
  }
  throw err;
}

const staleReason = clientStaleReason();
if (staleReason) {
  console.log(`Building the web client with vite (${staleReason})…`);
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const started = Date.now();
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.warn('The client build failed (see above); the server was not started.');
    process.exit(result.status ?? 1);
  }
  console.log(`Client built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} else {
  console.log('The web client in dist/ is up to date.');
}

await import(pathToFileURL(path.join(root, 'server/main.ts')).href);
