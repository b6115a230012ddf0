import PgBoss from 'pg-boss';
import type { Logger } from '../logger.js';
import type { JobQueue } from './queue.js';

/** The job queue on real Postgres: pg-boss 10 (the last major that runs on Node 20), in its own `pgboss` schema. */
export function createPgBossQueue(connectionString: string, logger: Logger, opts: { pollSeconds?: number } = {}): JobQueue {
  const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 3, application_name: 'poshan-jobs' });
  boss.on('error', (err) => logger.warn('job queue error', { error: err.message }));
  const names = new Set<string>();
  let started = false;
  return {
    kind: 'pg-boss',
    async start() {
      if (started) return;
      await boss.start();
      started = true;
    },
    async define(name, handler, defineOpts = {}) {
      await boss.createQueue(name);
      names.add(name);
      await boss.work(name, { pollingIntervalSeconds: opts.pollSeconds ?? 2 }, async (jobs) => {
        for (const job of jobs) await handler((job.data ?? {}) as Record<string, unknown>);
      });
      // pg-boss keeps one schedule per name, and its cron monitor queues each slot once across instances.
      if (defineOpts.everyMinutes) await boss.schedule(name, `*/${defineOpts.everyMinutes} * * * *`, {}, { tz: 'UTC' });
    },
    send: (name, data = {}, sendOpts = {}) =>
      boss.send(name, data, {
        ...(sendOpts.singletonKey ? { singletonKey: sendOpts.singletonKey } : {}),
        ...(sendOpts.startAfterSeconds ? { startAfter: sendOpts.startAfterSeconds } : {}),
      }),
    async depth() {
      let total = 0;
      for (const name of names) total += await boss.getQueueSize(name);
      return total;
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
