// S3MediaStorage against a real S3-compatible server (s3rver on loopback): round trips, replace, missing keys and a
// stream larger than any single buffer the SDK would hold, plus the settings it is built from.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { S3MediaStorage, s3ClientConfig } from '../src/storage/s3-media-storage.js';
import { tempDir } from './support/media-fixtures.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

let s3: TestS3Server;
let storage: S3MediaStorage;
const spool = tempDir('photos-s3-spool');

beforeAll(async () => {
  s3 = await startS3Server();
  // Spooling into a directory the test can watch.
  storage = S3MediaStorage.fromConfig(s3.config, { spoolDir: spool.dir });
});
afterAll(async () => {
  await s3?.stop();
  spool.cleanup();
});

const key = () => `teams/1/photos/${crypto.randomUUID()}/original`;

/** A stream of `total` random bytes in `chunk`-sized pieces (length unknown to the consumer), with its digest. */
function randomStream(total: number, chunk = 64 * 1024) {
  const hash = createHash('sha256');
  let sent = 0;
  let spoolFilesWhileSending = -1;
  const stream = new Readable({
    read() {
      if (sent >= total) {
        spoolFilesWhileSending = readdirSync(spool.dir).length;
        return this.push(null);
      }
      const piece = randomBytes(Math.min(chunk, total - sent));
      sent += piece.length;
      hash.update(piece);
      this.push(piece);
    },
  });
  return { stream, digest: () => hash.digest('hex'), spoolFilesWhileSending: () => spoolFilesWhileSending };
}

describe('S3MediaStorage on s3rver', () => {
  it('put → get → delete round trip keeps bytes, size and content type', async () => {
    const k = key();
    const bytes = Buffer.from('a small jpeg, pretend');
    expect(await storage.put(k, Readable.from([bytes]), 'image/jpeg')).toEqual({ sizeBytes: bytes.length });
    const got = await storage.get(k);
    expect(got).toMatchObject({ sizeBytes: bytes.length, contentType: 'image/jpeg' });
    expect(await buffer(got!.body)).toEqual(bytes);
    await storage.delete(k);
    expect(await storage.get(k)).toBeNull();
  });

  it('a missing key reads as null and deletes without error', async () => {
    const k = key();
    expect(await storage.get(k)).toBeNull();
    await expect(storage.delete(k)).resolves.toBeUndefined();
  });

  it('put replaces what is under the key (a retried rendition overwrites)', async () => {
    const k = key();
    await storage.put(k, Readable.from([Buffer.from('first version')]), 'image/jpeg');
    await storage.put(k, Readable.from([Buffer.from('second')]), 'image/png');
    const got = await storage.get(k);
    expect(got).toMatchObject({ sizeBytes: 6, contentType: 'image/png' });
    expect((await buffer(got!.body)).toString()).toBe('second');
  });

  it('streams 12 MiB of unknown length through intact and leaves no spool file behind', async () => {
    const k = key();
    const size = 12 * 1024 * 1024;
    const source = randomStream(size);
    expect(await storage.put(k, source.stream, 'video/mp4')).toEqual({ sizeBytes: size });
    const got = await storage.get(k);
    expect(got?.sizeBytes).toBe(size);
    const hash = createHash('sha256');
    for await (const piece of got!.body) hash.update(piece as Buffer);
    expect(hash.digest('hex')).toBe(source.digest());
    expect(source.spoolFilesWhileSending()).toBe(1);
    expect(readdirSync(spool.dir)).toEqual([]);
  });

  it('a failing source stream stores nothing, rejects, and leaves no spool file behind', async () => {
    const k = key();
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put(k, failing, 'image/jpeg')).rejects.toThrow('client went away');
    expect(await storage.get(k)).toBeNull();
    expect(readdirSync(spool.dir)).toEqual([]);
  });

  it('a missing bucket is an error, not a missing key', async () => {
    const other = S3MediaStorage.fromConfig({ ...s3.config, S3_BUCKET: 'no-such-bucket' });
    await expect(other.get(key())).rejects.toThrow();
  });
});

describe('s3ClientConfig', () => {
  const base = { S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'eu-central-1', S3_FORCE_PATH_STYLE: true, S3_ACCESS_KEY_ID: undefined, S3_SECRET_ACCESS_KEY: undefined };

  it('maps the S3_* settings; without keys the SDK default credential chain applies', () => {
    const config = s3ClientConfig(base);
    expect(config).toMatchObject({ region: 'eu-central-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' });
    expect(config.credentials).toBeUndefined();
    expect(s3ClientConfig({ ...base, S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }).credentials).toEqual({ accessKeyId: 'id', secretAccessKey: 'secret' });
  });

  it('refuses a key id without its secret, and a storage without a bucket', () => {
    expect(() => s3ClientConfig({ ...base, S3_ACCESS_KEY_ID: 'id' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
    expect(() => S3MediaStorage.fromConfig({ ...base, S3_BUCKET: undefined })).toThrow('S3_BUCKET');
  });
});
