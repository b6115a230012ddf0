import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { checkKey, type FileStorage } from './storage.js';

/**
 * Files in a folder of DATA_DIR, readable by the server's user only (like the
 * rest of DATA_DIR). A file is written beside its place and renamed into it,
 * so a reader never sees half of one.
 */
export function createLocalStorage(dir: string): FileStorage {
  const root = path.resolve(dir);
  const fileOf = (key: string) => path.join(root, ...checkKey(key).split('/'));
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const partial = `${file}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, bytes, { mode: 0o600 });
        await rename(partial, file);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    async get(key) {
      const file = fileOf(key);
      let size: number;
      try {
        size = (await stat(file)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
      return { body, size };
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async close() {},
  };
}
