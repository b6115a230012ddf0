import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Vitest globalSetup for browser tests: builds the client when dist/ is missing or older than the sources. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup() {
  const index = path.resolve('dist/index.html');
  const sources = Math.max(
    newestMtime(path.resolve('src')),
    newestMtime(path.resolve('server')),
    newestMtime(path.resolve('scripts/build')),
    statSync('index.html').mtimeMs,
    statSync('vite.config.ts').mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  // Vitest sets NODE_ENV=test, which Vite would honour with a development React build: test the production one.
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
