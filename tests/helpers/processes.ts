import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The real entry points as separate processes (server/main.ts, server/cli/*),
 * run through tsx exactly as npm scripts run them. For tests of start-up,
 * shutdown, the data-directory lock and the CLI.
 */

/** The environment of a child: ours minus database settings, plus the given ones. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'SEED_DEMO', 'APP_SECRET', 'PUBLIC_URL', 'SMTP_URL']) delete base[key];
  const merged: NodeJS.ProcessEnv = { ...base, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return merged;
}

const tsx = (script: string, args: string[], env: Record<string, string | undefined>) =>
  spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: process.cwd(),
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function tempDataDir(prefix = 'poshan-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type ProcessResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    out.stdout += String(d);
  });
  child.stderr?.on('data', (d) => {
    out.stderr += String(d);
  });
  const exited = new Promise<ProcessResult>((resolve) =>
    child.once('exit', (code, signal) => {
      // Let the pipes drain before reporting.
      setImmediate(() => resolve({ code, signal, ...out }));
    }),
  );
  return { out, exited };
}

/** Runs a script to completion. */
export async function runScript(script: string, args: string[], env: Record<string, string | undefined> = {}): Promise<ProcessResult> {
  return collect(tsx(script, args, env)).exited;
}

export const runUserCreate = (args: string[], env: Record<string, string | undefined> = {}) =>
  runScript('server/cli/user-create.ts', args, env);

export type ServerProcess = {
  pid: number;
  url: string;
  output(): string;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<ProcessResult>;
  exited: Promise<ProcessResult>;
};

/** Starts server/main.ts and resolves once it prints its URL (rejects if it exits first). */
export function startServerProcess(env: Record<string, string | undefined>, timeoutMs = 180_000): Promise<ServerProcess> {
  const child = tsx('server/main.ts', [], { PORT: '0', SEED_DEMO: '0', ...env });
  const { out, exited } = collect(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start within ${timeoutMs} ms:\n${out.stdout}${out.stderr}`));
    }, timeoutMs);
    const onData = () => {
      const match = /Poshan is running at (http:\/\/\S+)/.exec(out.stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve({
        pid: child.pid!,
        url: match[1]!,
        output: () => out.stdout + out.stderr,
        exited,
        async stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    void exited.then((r) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (code ${r.code}) before listening:\n${r.stdout}${r.stderr}`));
    });
  });
}
