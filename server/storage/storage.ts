/**
 * Where uploaded files live (decision 112). Two drivers behind one interface:
 * files under DATA_DIR (the embedded, single-instance setup) and an
 * S3-compatible bucket (any number of instances). Keys are made by the app
 * (a UUID and a suffix), never from a name someone sent.
 */
export type StoredObject = {
  /** The bytes, streamed: a large file is never held whole in memory to be served. */
  body: ReadableStream<Uint8Array>;
  size: number;
};

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under the key, replacing what was there; visible to get() once this resolves. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or null when there is none under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; a key with nothing under it is not an error (cleanup may run twice). */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Keys the app makes: lower-case letters, digits, '-', '.' and '/' between parts; nothing that climbs out of a folder. */
const KEY = /^[a-z0-9][a-z0-9.-]*(\/[a-z0-9][a-z0-9.-]*)*$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..') || key.length > 200) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}
