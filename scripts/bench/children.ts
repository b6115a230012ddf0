import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export type Child = {
  name: string;
  port: number;
  process: ChildProcess;
  ask<T = Record<string, unknown>>(type: string, extra?: object): Promise<T>;
  stop(): Promise<void>;
};

/** Starts one of the bench's servers as its own process (it must not share the load generator's event loop). */
export async function startChild(
  name: string,
  script: 'app-server.ts' | 'reference-server.ts' | 'fanout-server.ts' | 'layers-server.ts' | 'answer-server.ts',
  env: Record<string, string | undefined>,
  opts: { cpuProfileDir?: string } = {},
): Promise<Child> {
  const execArgv = ['--import', 'tsx', '--expose-gc', '--max-old-space-size=2048'];
  // One file per thread (tsx's loader runs on a thread of its own): the largest is the server's main thread.
  if (opts.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${path.join(opts.cpuProfileDir, name)}`);
  const child = fork(path.join(here, script), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, (m: any) => void>();
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code} before listening`)));
    child.on('message', (m: any) => {
      if (m.type === 'listening') resolve(m.port);
      else waiting.get(m.id)?.(m);
    });
  });
  child.removeAllListeners('exit');
  return {
    name,
    port,
    process: child,
    ask(type, extra = {}) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, (m) => {
          waiting.delete(id);
          resolve(m);
        });
        child.send({ type, id, ...extra });
      });
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.disconnect();
      });
    },
  };
}
