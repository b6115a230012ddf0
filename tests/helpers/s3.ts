import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for a test (s3rver, in this process, files in a temporary folder):
 * the S3 storage driver talks to it over HTTP with the AWS SDK as it would to MinIO.
 */
export async function startS3Server(bucket = 'poshan-test') {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'poshan-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's own keys; it checks signatures made with them.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    directory,
    settings: { endpoint, bucket, region: 'us-east-1', credentials },
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
