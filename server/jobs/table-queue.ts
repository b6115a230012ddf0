import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Logger } from '../logger.js';
import type { JobHandler, JobQueue } from './queue.js';
import * as repo from './repo.js';

const ATTEMPTS = 3;
const LOCK_SECONDS = 300;
const retryDelaySeconds = (attempt: number) => 30 * 2 ** (attempt - 1);

/**
 * The job queue on the embedded database: a table polled with
 * `FOR UPDATE SKIP LOCKED`, so it is also safe with several workers on one
 * Postgres. Scheduled jobs are queued with a per-slot singleton key.
 */
export function createTableQueue(db: Kysely<Database>, logger: Logger, opts: { pollMs?: number } = {}): JobQueue {
  const pollMs = opts.pollMs ?? 1000;
  const handlers = new Map<string, JobHandler>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  const runOne = async (): Promise<boolean> => {
    const job = await repo.claimJob(db, [...handlers.keys()], LOCK_SECONDS);
    if (!job) return false;
    const handler = handlers.get(job.name);
    try {
      await handler!(job.data);
      await repo.completeJob(db, job.id);
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      logger.warn(`job ${job.name} #${job.id} failed (attempt ${job.attempts})`, { error: message });
      await repo.failJob(db, job.id, message, job.attempts < ATTEMPTS ? retryDelaySeconds(job.attempts) : null);
    }
    return true;
  };

  const work = async () => {
    while (running) {
      let didWork = false;
      try {
        if (handlers.size > 0) didWork = await runOne();
      } catch (err) {
        if (running) logger.warn('job queue poll failed', { error: (err as Error).message });
      }
      if (didWork) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  };

  const send: JobQueue['send'] = async (name, data = {}, sendOpts = {}) => {
    const id = await repo.insertJob(db, name, data, sendOpts.singletonKey ?? null, sendOpts.startAfterSeconds ?? 0);
    wake?.();
    return id;
  };

  return {
    kind: 'table',
    async start() {
      if (running) return;
      running = true;
      loop = work();
    },
    async define(name, handler, defineOpts = {}) {
      handlers.set(name, handler);
      const every = defineOpts.everyMinutes;
      if (every) {
        const slotMs = every * 60_000;
        const queueSlot = () =>
          send(name, {}, { singletonKey: `slot:${Math.floor(Date.now() / slotMs)}` }).catch((err: Error) =>
            logger.warn(`could not schedule job ${name}`, { error: err.message }),
          );
        await queueSlot();
        const timer = setInterval(() => void queueSlot(), slotMs);
        timer.unref();
        timers.add(timer);
      }
    },
    send,
    depth: () => repo.countWaitingJobs(db, [...handlers.keys()]),
    async stop() {
      for (const t of timers) clearInterval(t);
      timers.clear();
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
  };
}
