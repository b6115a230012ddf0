import type { DbHandle } from '../db/index.js';
import type { StorageConfig } from '../env.js';
import type { Logger } from '../logger.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import { holdLocalFilesLock } from './single-instance.js';
import type { FileStorage } from './storage.js';

export type { FileStorage } from './storage.js';

/**
 * The configured storage: an S3-compatible bucket when S3_BUCKET is set, else a folder of
 * DATA_DIR, which on Postgres first makes sure no instance elsewhere uses the same database
 * with files of its own (throws LocalFilesElsewhereError).
 */
export async function openStorage(config: StorageConfig, dbHandle: DbHandle, logger: Logger): Promise<FileStorage> {
  if (config.driver === 's3') return createS3Storage(config);
  const local = createLocalStorage(config.dir);
  if (dbHandle.kind !== 'postgres' || !dbHandle.url) return local;
  const lock = await holdLocalFilesLock(dbHandle.url, config.dir, logger);
  return {
    ...local,
    async close() {
      await local.close();
      await lock.release();
    },
  };
}
