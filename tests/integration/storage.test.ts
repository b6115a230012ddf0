import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../server/storage/local.js';
import { createS3Storage } from '../../server/storage/s3.js';
import type { FileStorage } from '../../server/storage/storage.js';
import { startS3Server } from '../helpers/s3.js';

/** The same behaviour from both drivers: the local folder and a real S3-compatible server (s3rver). */

const readAll = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer());

function storageSuite(name: string, open: () => Promise<{ storage: FileStorage; stop(): Promise<void> }>) {
  describe(`${name} storage`, () => {
    let storage: FileStorage;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, stop } = await open());
    });
    afterAll(async () => {
      await storage?.close();
      await stop?.();
    });

    it('gives back exactly the bytes it was given, with their size, as a stream', async () => {
      const bytes = randomBytes(300_000);
      await storage.put('attachments/4d3c2b1a-0000-4000-8000-000000000001', bytes, 'image/jpeg');
      const got = await storage.get('attachments/4d3c2b1a-0000-4000-8000-000000000001');
      expect(got?.size).toBe(bytes.length);
      expect(got?.body).toBeInstanceOf(ReadableStream);
      expect((await readAll(got!.body)).equals(bytes)).toBe(true);
    });

    it('answers null for a key with nothing under it', async () => {
      expect(await storage.get('attachments/never-stored')).toBeNull();
    });

    it('replaces what a key held', async () => {
      await storage.put('attachments/replaced', Buffer.from('first'), 'application/pdf');
      await storage.put('attachments/replaced', Buffer.from('second, longer'), 'application/pdf');
      const got = await storage.get('attachments/replaced');
      expect((await readAll(got!.body)).toString()).toBe('second, longer');
    });

    it('deletes, and deleting again or deleting nothing is not an error', async () => {
      await storage.put('attachments/gone.thumb', Buffer.from('x'), 'image/webp');
      await storage.delete('attachments/gone.thumb');
      expect(await storage.get('attachments/gone.thumb')).toBeNull();
      await expect(storage.delete('attachments/gone.thumb')).resolves.toBeUndefined();
      await expect(storage.delete('attachments/never-there')).resolves.toBeUndefined();
    });

    it('stores an empty object and a large one', async () => {
      await storage.put('attachments/empty', new Uint8Array(0), 'application/pdf');
      expect((await storage.get('attachments/empty'))?.size).toBe(0);
      const big = randomBytes(10 * 1024 * 1024);
      await storage.put('attachments/big', big, 'image/png');
      const got = await storage.get('attachments/big');
      expect((await readAll(got!.body)).equals(big)).toBe(true);
    });

    it('refuses keys that could climb out of their place or were not made by the app', async () => {
      for (const key of ['../etc/passwd', 'attachments/../../x', '/abs', 'Attachments/X', 'a//b', 'a b', '']) {
        await expect(storage.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow(/not a storage key/);
        await expect(storage.get(key)).rejects.toThrow(/not a storage key/);
      }
    });
  });
}

storageSuite('local', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'poshan-files-'));
  return { storage: createLocalStorage(path.join(dir, 'files')), stop: async () => rmSync(dir, { recursive: true, force: true }) };
});

storageSuite('S3', async () => {
  const s3 = await startS3Server();
  return { storage: createS3Storage(s3.settings), stop: () => s3.stop() };
});

describe('local storage on disk', () => {
  it('keeps files readable by the server’s user only, and leaves no partial files behind', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'poshan-files-'));
    try {
      const storage = createLocalStorage(path.join(dir, 'files'));
      await storage.put('attachments/private', Buffer.from('health data'), 'application/pdf');
      expect(statSync(path.join(dir, 'files', 'attachments', 'private')).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dir, 'files', 'attachments')).mode & 0o777).toBe(0o700);
      expect(readdirSync(path.join(dir, 'files', 'attachments'))).toEqual(['private']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
