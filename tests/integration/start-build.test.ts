import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the start script, without type declarations
import { BUILD_STAMP, buildClient, clientStaleReason } from '../../scripts/client-build.mjs';

/**
 * `npm start` builds the web client for production whatever NODE_ENV the
 * shell has, and rebuilds an output it did not build for production itself:
 * file times alone cannot tell React's development build from its production one.
 */

const root = path.resolve('.');
const scratch = mkdtempSync(path.join(tmpdir(), 'poshan-start-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const shellNodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = shellNodeEnv;
});

describe('npm start: the client build', () => {
  it('rebuilds an output without index.html, without a stamp, or with a stamp of another build', () => {
    const out = path.join(scratch, 'decision');
    expect(clientStaleReason(root, out)).toMatch(/index\.html is missing/);
    mkdirSync(out);
    writeFileSync(path.join(out, 'index.html'), '<!doctype html><title>built by hand</title>');
    expect(clientStaleReason(root, out)).toMatch(/no production build/);
    writeFileSync(path.join(out, BUILD_STAMP), JSON.stringify({ mode: 'development', index: 'x' }));
    expect(clientStaleReason(root, out)).toMatch(/no production build/);
  });

  it('builds for production under NODE_ENV=development, and keeps that build until it goes stale', { timeout: 600_000 }, () => {
    const out = path.join(scratch, 'dist');
    process.env.NODE_ENV = 'development';
    expect(buildClient(root, out, { stdio: 'pipe' })).toBe(0);

    const assets = readdirSync(path.join(out, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    for (const file of assets) {
      const code = readFileSync(path.join(out, 'assets', file), 'utf8');
      expect(code, file).not.toContain('jsx-dev-runtime');
      expect(code, file).not.toContain('jsxDEV');
    }
    expect(clientStaleReason(root, out)).toBeNull();

    // Another build over it (a later `vite build` in a development shell) is not taken for this one.
    writeFileSync(path.join(out, 'index.html'), `${readFileSync(path.join(out, 'index.html'), 'utf8')}\n`);
    expect(clientStaleReason(root, out)).toMatch(/no production build/);
  });
});
