import { readFileSync } from 'node:fs';
import type pg from 'pg';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU milliseconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 0, utime 11, stime 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export type CpuSample = { server: number; db: Map<number, number> };
/** CPU per request, in ms: the server process and the Postgres backends of the bench database. */
export type CpuCost = { serverMs: number; dbMs: number };

/**
 * Measures what a piece of load cost in CPU, which a busy machine moves far
 * less than throughput: the server's own process, and every Postgres backend
 * connected to the bench database (the reference and the app share it, and
 * only one of them is driven at a time).
 */
export function cpuMeter(admin: pg.Client, database: string) {
  const backends = async () =>
    (
      await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database])
    ).rows.map((r) => r.pid);
  return {
    async sample(serverPid: number): Promise<CpuSample> {
      const db = new Map<number, number>();
      for (const pid of await backends()) db.set(pid, cpuMsOf(pid));
      return { server: cpuMsOf(serverPid), db };
    },
    async since(start: CpuSample, serverPid: number, requests: number): Promise<CpuCost> {
      const end = await this.sample(serverPid);
      let db = 0;
      // A backend that started during the load counts from zero; one that ended is lost (the pools keep theirs open).
      for (const [pid, ms] of end.db) db += ms - (start.db.get(pid) ?? 0);
      const per = Math.max(requests, 1);
      return { serverMs: (end.server - start.server) / per, dbMs: db / per };
    },
  };
}
