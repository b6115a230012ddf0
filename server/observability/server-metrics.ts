import type { DbHandle } from '../db/index.js';
import { countUnsettledMail } from '../mail/repo.js';
import type { Metrics } from './metrics.js';

/** Gauges read from the database and its pool at scrape time. */
export function registerServerMetrics(metrics: Metrics, dbHandle: DbHandle) {
  if (!metrics.enabled) return;
  const poolStats = dbHandle.poolStats;
  if (poolStats) metrics.setPoolStats(() => poolStats());
  metrics.registerGauge(
    'outbox_unsettled_mails',
    'Outbox mails not delivered: queued (pending) and failed (needs a retry from the console).',
    () => countUnsettledMail(dbHandle.db),
    'status',
  );
}
