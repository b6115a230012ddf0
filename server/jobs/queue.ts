/**
 * Background jobs behind one interface (decision record 072): pg-boss on real
 * Postgres, a small SKIP LOCKED table on the embedded database (pg-boss cannot
 * run on PGlite). Delivery is at least once, so handlers must be idempotent:
 * the reminders are, through a unique key on what was sent.
 */
export type JobData = Record<string, unknown>;
export type JobHandler = (data: JobData) => Promise<void>;

export interface JobQueue {
  readonly kind: 'pg-boss' | 'table';
  start(): Promise<void>;
  /**
   * Registers a named job and its handler. With `everyMinutes`, the job is
   * also queued on that schedule, once per slot across every instance.
   */
  define(name: string, handler: JobHandler, opts?: { everyMinutes?: number }): Promise<void>;
  /**
   * Queues a run; with a singleton key, at most one such job waits or runs at a time; with
   * startAfterSeconds, not before then (a retry's backoff). Resolves to the job id, or null if one was already waiting.
   */
  send(name: string, data?: JobData, opts?: { singletonKey?: string; startAfterSeconds?: number }): Promise<string | null>;
  /** Jobs waiting or running, across the defined queues (for metrics and tests). */
  depth(): Promise<number>;
  stop(): Promise<void>;
}
