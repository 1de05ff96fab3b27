// MediaStorage on S3-compatible object storage (AWS S3, MinIO, Ceph, s3rver...), chosen when S3_BUCKET is set.
// An upload stream's length is unknown until it ends, and a single PutObject needs it up front (S3 refuses a chunked
// body without it; multipart upload would need @aws-sdk/lib-storage or hand-written part bookkeeping). So `put` spools
// the stream to a temp file first, then sends the file with its exact length: memory stays flat for a 500 MB video,
// and the temp file is removed whatever happens.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { PhotosConfig } from '../config.js';
import type { MediaStorage, StoredObject } from './media-storage.js';

export type S3StorageConfig = Pick<PhotosConfig, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>;

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export class S3MediaStorage implements MediaStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    /** Where `put` spools a stream before sending it; the OS temp directory by default. */
    private readonly spoolDir: string = tmpdir(),
  ) {}

  /** The storage the S3_* settings describe; throws naming the setting when they are incomplete. */
  static fromConfig(config: S3StorageConfig, options: { spoolDir?: string } = {}): S3MediaStorage {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is not set: S3 media storage needs a bucket');
    return new S3MediaStorage(new S3Client(s3ClientConfig(config)), config.S3_BUCKET, options.spoolDir);
  }

  async put(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    const dir = await mkdtemp(join(this.spoolDir, 'photos-s3-put-'));
    try {
      const file = join(dir, 'body');
      await pipeline(body, createWriteStream(file));
      const { size } = await stat(file);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: contentType }));
      return { sizeBytes: size };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async get(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: string } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage (a Readable).
      return { body: object.Body as Readable, sizeBytes: object.ContentLength ?? 0, contentType: object.ContentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isMissingKey(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a key that is not there, so a missing key is no error here either.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/** The S3 client settings of the S3_* variables. */
export function s3ClientConfig(config: S3StorageConfig): S3ClientConfig {
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return {
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    // Without explicit keys the SDK's default chain applies (environment, instance profile, ...).
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } } : {}),
    // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's default trailing CRC32.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** Only a missing key: a missing bucket (NoSuchBucket, also a 404) is a configuration error and must surface. */
function isMissingKey(error: unknown): boolean {
  return error instanceof Error && error.name === 'NoSuchKey';
}
