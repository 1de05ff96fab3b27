// A real S3-compatible server for tests: s3rver on a free loopback port, storing in a temp directory, one bucket made.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { S3StorageConfig } from '../../src/storage/s3-media-storage.js';
import { tempDir } from './media-fixtures.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types; this is the part of its API the tests use.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

/** s3rver's fixed development credentials (it checks signatures against them). */
const S3RVER_CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

export interface TestS3Server {
  /** The S3_* settings that reach it (bucket made). */
  config: S3StorageConfig & { S3_BUCKET: string };
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'photos-test'): Promise<TestS3Server> {
  const dir = tempDir('photos-s3rver');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir.dir, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: { S3_BUCKET: bucket, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true, ...S3RVER_CREDENTIALS },
    stop: async () => {
      await server.close();
      dir.cleanup();
    },
  };
}
