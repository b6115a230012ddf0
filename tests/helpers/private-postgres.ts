import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

/**
 * A private Postgres 15 cluster on its own port, for tests that stop and
 * start the database under a running server. Postgres refuses to run as
 * root, so every command runs as the `postgres` user through runuser, with
 * the data and socket directories under /tmp owned by that user.
 */
const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Why the cluster cannot be made here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl']) if (!existsSync(path.join(BIN, tool))) return `${BIN}/${tool} is not installed`;
  if (!existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return 'runuser is not installed';
  if (process.getuid?.() !== 0) return 'the tests must run as root to start Postgres as the postgres user';
  return null;
}

const asPostgres = (tool: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args], { timeout: 60_000 });

export type PrivatePostgres = { url: string; port: number; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> };

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(path.join(tmpdir(), 'poshan-pg-'));
  const dataDir = path.join(root, 'data');
  const socketDir = root;
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  chownSync(root, Number(uid), Number(gid));
  await asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1`;
  const cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(root, 'postgres.log'), '-w', 'start']);
    },
    /** A fast shutdown: sessions are terminated (57P01), as on a restart or failover. */
    async stop() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    async destroy() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
