import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The client build this run's browser tests serve (tests/helpers/server.ts passes it as CLIENT_DIST_DIR). */
    clientDistDir: string;
  }
}

/**
 * Vitest globalSetup for browser tests: builds the client into a directory of
 * this run's own, so two runs side by side (or `npm run build` meanwhile) never
 * serve each other's half-written files. The directory is removed at the end.
 * `TEST_CLIENT_DIST_DIR=dist` reuses a build made beforehand instead.
 */
export default function setup(project: TestProject) {
  const prebuilt = process.env.TEST_CLIENT_DIST_DIR;
  if (prebuilt) {
    project.provide('clientDistDir', path.resolve(prebuilt));
    return;
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'poshan-client-'));
  // Vitest sets NODE_ENV=test, which Vite would honour with a development React build: test the production one.
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  project.provide('clientDistDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
