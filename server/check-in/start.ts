import type { DbHandle } from '../db/index.js';
import type { Config } from '../env.js';
import { createPgBossQueue } from '../jobs/pg-boss-queue.js';
import type { JobQueue } from '../jobs/queue.js';
import { createTableQueue } from '../jobs/table-queue.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import type { Metrics } from '../observability/metrics.js';
import { createFollowUpBus } from './bus.js';
import { scheduleReminders } from './reminders.js';

/** pg-boss where there is a Postgres URL, the job table on the embedded database. */
export function createJobQueue(dbHandle: DbHandle, logger: Logger): JobQueue {
  return dbHandle.kind === 'postgres' && dbHandle.url ? createPgBossQueue(dbHandle.url, logger) : createTableQueue(dbHandle.db, logger);
}

/** The follow-up loop's moving parts: its live bus and the job queue that sends the reminders. */
export async function startFollowUps(opts: {
  config: Config;
  dbHandle: DbHandle;
  logger: Logger;
  mailer: Mailer;
  metrics: Metrics;
  clock: () => Date;
}) {
  const { dbHandle, logger } = opts;
  const followUpBus = createFollowUpBus(dbHandle, (err) => logger.warn('bad follow-up notification', { error: err.message }));
  await followUpBus.start();
  const jobs = createJobQueue(dbHandle, logger);
  await jobs.start();
  await scheduleReminders(jobs, { db: dbHandle.db, mailer: opts.mailer, jobs, logger, config: opts.config }, opts.clock);
  // Mail an earlier process recorded but never sent goes out now, in the background (the startup lock is held).
  void opts.mailer.sweepAbandoned().catch(() => {});
  if (opts.metrics.enabled)
    opts.metrics.registerGauge('job_queue_depth', 'Background jobs (reminder sweeps) waiting or running.', () => jobs.depth());
  return { followUpBus, jobs };
}
