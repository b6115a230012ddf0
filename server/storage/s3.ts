import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { checkKey, type FileStorage } from './storage.js';

export type S3Settings = {
  /** An S3-compatible server (MinIO...); unset for AWS itself, found from the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither: unset, the SDK's own chain (instance role, AWS_* variables) is used. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
};

/** An object in a bucket per key. Path-style addressing, which every S3-compatible server answers. */
export function createS3Storage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: true,
  });
  const Bucket = settings.bucket;
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        if (!out.Body) return null;
        return { body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: out.ContentLength ?? 0 };
      } catch (err) {
        if (err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) return null;
        throw err;
      }
    },
    async delete(key) {
      // S3 answers a delete of a missing key with success, as this interface promises.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async close() {
      client.destroy();
    },
  };
}
