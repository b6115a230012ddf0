import { randomUUID } from 'node:crypto';
import { storageKey } from '../attachments/service.js';
import { insertUpload } from '../attachments/repo.js';
import { newLinkKey } from '../attachments/signed-url.js';
import type { Db } from '../db/index.js';
import type { AttachmentUse } from '../db/schema.js';
import type { FileStorage } from '../storage/storage.js';
import { serviceInstant } from '../time.js';
import type { DemoPhoto } from './demo-photos.js';

/**
 * A demo photo stored as an upload that was made and used at `at`: its two
 * files under the keys the upload path uses, and its row ready and claimed for
 * the client's record, so signed links and thumbnails work as for any photo.
 * Each call stores its own copy (an attachment is one file of one record).
 */
export async function storeDemoPhoto(
  trx: Db,
  storage: FileStorage,
  photo: DemoPhoto,
  use: { uploaderId: number; clientId: number; use: AttachmentUse; at: Date; name: string },
): Promise<string> {
  const id = randomUUID();
  await storage.put(storageKey(id, 'file'), photo.jpeg, 'image/jpeg');
  await storage.put(storageKey(id, 'thumbnail'), photo.thumbnail, 'image/webp');
  await insertUpload(trx, {
    id,
    uploader_id: use.uploaderId,
    name: use.name,
    content_type: 'image/jpeg',
    received_bytes: photo.jpeg.length,
    size: photo.jpeg.length,
    link_key: newLinkKey(),
    has_thumbnail: true,
    ready: true,
    client_id: use.clientId,
    used_for: use.use,
    claimed_at: use.at,
    created_at: use.at,
  });
  return id;
}

/** The name a phone camera gives a photo taken at `at` (India time). */
export function cameraName(at: Date): string {
  // The India wall clock of `at`, written as if it were UTC (service midnight of 1 Jan 1970 is that many ms before zero).
  const ist = new Date(at.getTime() - serviceInstant('1970-01-01').getTime()).toISOString();
  return `IMG_${ist.slice(0, 10).replaceAll('-', '')}_${ist.slice(11, 19).replaceAll(':', '')}.jpg`;
}
