import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Logger } from '../logger.js';
import type { FileStorage } from '../storage/storage.js';
import * as repo from './repo.js';
import { storageKey, UNCLAIMED_LIFETIME_MS } from './service.js';

export const CLEANUP_JOB = 'attachments.cleanup';
const CLEANUP_EVERY_MINUTES = 30;
const BATCH = 100;

type CleanupDeps = { db: Kysely<Database>; storage: FileStorage; logger: Logger; clock: () => Date };

/**
 * Deletes uploads nobody used within a day, with their files: one batch per transaction, the rows
 * locked (SKIP LOCKED, so two instances share the work) and deleted, then their files, then the
 * commit. A failure rolls the rows back for the next run; a claim cannot meet a half-deleted file,
 * since claims refuse uploads older than a day. Safe to run twice (at-least-once jobs).
 */
export async function deleteUnclaimedAttachments(deps: CleanupDeps): Promise<number> {
  let total = 0;
  for (;;) {
    const cutoff = new Date(deps.clock().getTime() - UNCLAIMED_LIFETIME_MS);
    const deleted = await deps.db.transaction().execute(async (trx) => {
      const rows = await repo.lockUnclaimedBefore(trx, cutoff, BATCH);
      if (rows.length === 0) return 0;
      await repo.deleteAttachments(
        trx,
        rows.map((r) => r.id),
      );
      for (const row of rows) {
        await deps.storage.delete(storageKey(row.id, 'file'));
        // Also when no thumbnail was recorded: an upload that failed half-way may have stored one.
        await deps.storage.delete(storageKey(row.id, 'thumbnail'));
      }
      return rows.length;
    });
    total += deleted;
    if (deleted < BATCH) break;
  }
  if (total > 0) deps.logger.info('unused uploads deleted', { count: total });
  return total;
}

/** The cleanup runs on a schedule through the job queue, once per slot across every instance, and survives restarts. */
export async function scheduleAttachmentCleanup(jobs: JobQueue, deps: CleanupDeps): Promise<void> {
  await jobs.define(
    CLEANUP_JOB,
    async () => {
      await deleteUnclaimedAttachments(deps);
    },
    { everyMinutes: CLEANUP_EVERY_MINUTES },
  );
}
