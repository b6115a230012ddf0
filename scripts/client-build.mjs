// How `npm start` decides whether the web client in dist/ must be built, and
// builds it. Kept apart from start.mjs so a test can run the decision and the
// build without starting a server.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Written into the output directory after a production build: the mode, and a
 * hash of the index.html that build wrote. The shell's NODE_ENV decides React's
 * build (NODE_ENV=development gives the development one), so file times alone
 * cannot tell a production build from another: an output without a stamp that
 * matches its index.html was built some other way and is rebuilt. The name has
 * no extension, so the server never serves it.
 */
export const BUILD_STAMP = '.build-mode';

/**
 * Why the client in `outDir` must be rebuilt, or null when it is a production
 * build newer than every input: the client's sources, index.html, public/, the
 * build config, the lockfile, and the server files the client imports (shared
 * zod schemas, brand), found by following the imports from src/.
 */
export function clientStaleReason(root, outDir = path.join(root, 'dist')) {
  const index = path.join(outDir, 'index.html');
  if (!existsSync(index)) return `${path.relative(root, index)} is missing`;
  const stamp = readStamp(outDir);
  if (stamp?.mode !== 'production' || stamp.index !== fileHash(index)) {
    return `${path.relative(root, outDir) || '.'} holds no production build of its own`;
  }
  const builtAt = statSync(index).mtimeMs;
  const inputs = [
    ...filesUnder(path.join(root, 'src')),
    ...filesUnder(path.join(root, 'public')),
    ...['index.html', 'vite.config.ts', 'package-lock.json'].map((f) => path.join(root, f)).filter(existsSync),
  ];
  inputs.push(
    ...serverFilesImportedBy(
      root,
      inputs.filter((f) => /\.(ts|tsx)$/.test(f)),
    ),
  );
  const newer = inputs.find((f) => statSync(f).mtimeMs > builtAt);
  return newer ? `${path.relative(root, newer)} changed since the last build` : null;
}

/**
 * Builds the client into `outDir` for production whatever NODE_ENV the shell
 * has, and stamps it. Returns the build's exit status (0 on success).
 */
export function buildClient(root, outDir = path.join(root, 'dist'), opts = {}) {
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--mode', 'production', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    { cwd: root, stdio: opts.stdio ?? 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  const status = result.status ?? 1;
  if (status === 0) {
    const stamp = { mode: 'production', index: fileHash(path.join(outDir, 'index.html')) };
    writeFileSync(path.join(outDir, BUILD_STAMP), `${JSON.stringify(stamp)}\n`);
  }
  return status;
}

function readStamp(outDir) {
  try {
    return JSON.parse(readFileSync(path.join(outDir, BUILD_STAMP), 'utf8'));
  } catch {
    return null;
  }
}

function fileHash(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
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

function serverFilesImportedBy(root, entryFiles) {
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
