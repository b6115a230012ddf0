import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * A newcomer's `npm install && npm start` prints nothing they must wonder about: every dependency with an
 * install script is decided in package.json's allowScripts (npm 11 warns about the rest on every install),
 * and loading the Vite config (npm start builds the client) warns about nothing.
 */
describe('a quiet install and start', () => {
  it('every install script of a dependency is allowed or denied in allowScripts', async () => {
    const { stdout, stderr } = await run('npm', ['install-scripts', 'ls'], { cwd: root });
    expect(`${stdout}${stderr}`).toContain('No packages with unreviewed install scripts');
  }, 60_000);

  it("loading the Vite config prints no warning (Vite's native config loader check included)", async () => {
    const script = `
      const { loadConfigFromFile } = await import('vite');
      await loadConfigFromFile({ command: 'build', mode: 'production' }, undefined, ${JSON.stringify(root)});
    `;
    const env = { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: '' };
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env });
    expect(`${stdout}${stderr}`.trim()).toBe('');
  }, 60_000);
});
