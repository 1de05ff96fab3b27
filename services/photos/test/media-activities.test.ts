// The media activities on real media in a real S3-compatible store (s3rver): originals uploaded as the upload would,
// renditions read back and decoded. The photo record is an in-memory port (the photos module owns the real one).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ApplicationFailure } from '@temporalio/client';
import { createLogger } from '@tributary/kit';
import sharp from 'sharp';
import { NO_RENDITIONS, photoMediaActivities, renditionKey, UNRENDERABLE_MEDIA_FAILURE, type PhotoToRender } from '../src/media/index.js';
import { S3MediaStorage } from '../src/storage/s3-media-storage.js';
import { InMemoryRenditionStore } from './support/media-doubles.js';
import { jpegWithOrientation6, landscapeImage, tempDir, writeAudioOnlyMp4, writeTestVideo } from './support/media-fixtures.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

let s3: TestS3Server;
let storage: S3MediaStorage;
const work = tempDir('photos-media-work');
const fixtures = tempDir('photos-media-fixtures');
const logger = createLogger({ service: 'photos', level: 'silent' });
let nextPhotoId = 1;

beforeAll(async () => {
  s3 = await startS3Server();
  storage = S3MediaStorage.fromConfig(s3.config);
});
afterAll(async () => {
  await s3?.stop();
  work.cleanup();
  fixtures.cleanup();
});

/** Stores `bytes` as a new photo's original (as the upload does) and registers the photo in a fresh store. */
async function uploaded(bytes: Buffer, photo: Pick<PhotoToRender, 'mediaType' | 'mimeType'>) {
  const photoId = nextPhotoId++;
  const originalKey = `teams/3/photos/${crypto.randomUUID()}/original`;
  await storage.put(originalKey, Readable.from([bytes]), photo.mimeType);
  const store = new InMemoryRenditionStore();
  store.photos.set(photoId, { teamId: 3, originalKey, ...photo });
  const activities = photoMediaActivities({ storage, renditions: store, logger, workDir: work.dir });
  return { photoId, originalKey, store, activities };
}

async function storedJpeg(key: string) {
  const object = await storage.get(key);
  expect(object?.contentType).toBe('image/jpeg');
  const meta = await sharp(await buffer(object!.body)).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('renderPhotoMedia', () => {
  it('a JPEG with EXIF orientation 6: thumb.jpg next to the original, portrait, and the displayed size recorded', async () => {
    const { photoId, originalKey, store, activities } = await uploaded(await jpegWithOrientation6(640, 320), { mediaType: 'photo', mimeType: 'image/jpeg' });
    const thumbKey = originalKey.replace(/original$/, 'thumb.jpg');
    expect(await activities.renderPhotoMedia({ photoId })).toEqual({ outcome: 'rendered', thumbKey, posterKey: null, durationSeconds: null });
    expect(await storedJpeg(thumbKey)).toEqual({ format: 'jpeg', width: 160, height: 320 });
    expect(store.saved).toEqual([{ photoId, renditions: { thumbKey, posterKey: null, durationSeconds: null, width: 320, height: 640 } }]);
    expect(readdirSync(work.dir)).toEqual([]);
  });

  for (const [format, mimeType] of [['png', 'image/png'], ['webp', 'image/webp']] as const) {
    it(`a ${format}: a JPEG thumbnail`, async () => {
      const { photoId, originalKey, store, activities } = await uploaded(await landscapeImage(format, 1200, 900), { mediaType: 'photo', mimeType });
      await activities.renderPhotoMedia({ photoId });
      expect(await storedJpeg(renditionKey(originalKey, 'thumb'))).toEqual({ format: 'jpeg', width: 320, height: 240 });
      expect(store.saved[0]!.renditions).toMatchObject({ width: 1200, height: 900 });
    });
  }

  it('a video: poster.jpg next to the original, duration and size recorded, no thumbnail', async () => {
    const video = readFileSync(writeTestVideo(join(fixtures.dir, 'clip.mp4'), { seconds: 3, width: 640, height: 360 }));
    const { photoId, originalKey, store, activities } = await uploaded(video, { mediaType: 'video', mimeType: 'video/mp4' });
    const result = await activities.renderPhotoMedia({ photoId });
    const posterKey = renditionKey(originalKey, 'poster');
    expect(result).toMatchObject({ outcome: 'rendered', thumbKey: null, posterKey });
    expect(result.durationSeconds).toBeCloseTo(3, 0);
    expect(await storedJpeg(posterKey)).toEqual({ format: 'jpeg', width: 320, height: 180 });
    expect(store.saved).toHaveLength(1);
    expect(store.saved[0]!.renditions).toMatchObject({ thumbKey: null, posterKey, width: 640, height: 360 });
    expect(readdirSync(work.dir)).toEqual([]);
  });

  it('a video without a frame (audio only): duration recorded, no poster, no size', async () => {
    const audio = readFileSync(writeAudioOnlyMp4(join(fixtures.dir, 'tone.mp4'), 2));
    const { photoId, originalKey, store, activities } = await uploaded(audio, { mediaType: 'video', mimeType: 'video/mp4' });
    const result = await activities.renderPhotoMedia({ photoId });
    expect(result).toMatchObject({ outcome: 'rendered', thumbKey: null, posterKey: null });
    expect(result.durationSeconds).toBeCloseTo(2, 0);
    expect(await storage.get(renditionKey(originalKey, 'poster'))).toBeNull();
    expect(store.saved[0]!.renditions).toMatchObject({ posterKey: null, width: null, height: null });
  });

  it('is idempotent: a second run overwrites the same key with the same result', async () => {
    const { photoId, originalKey, store, activities } = await uploaded(await landscapeImage('jpeg', 800, 600), { mediaType: 'photo', mimeType: 'image/jpeg' });
    const first = await activities.renderPhotoMedia({ photoId });
    const firstBytes = await buffer((await storage.get(renditionKey(originalKey, 'thumb')))!.body);
    const second = await activities.renderPhotoMedia({ photoId });
    const secondBytes = await buffer((await storage.get(renditionKey(originalKey, 'thumb')))!.body);
    expect(second).toEqual(first);
    expect(secondBytes.equals(firstBytes)).toBe(true);
    expect(store.saved.map((s) => s.renditions)).toEqual([store.saved[0]!.renditions, store.saved[0]!.renditions]);
  });

  it('a photo deleted meanwhile: gone, nothing stored or recorded', async () => {
    const { photoId, originalKey, store, activities } = await uploaded(await landscapeImage('jpeg'), { mediaType: 'photo', mimeType: 'image/jpeg' });
    store.photos.delete(photoId);
    expect(await activities.renderPhotoMedia({ photoId })).toEqual({ outcome: 'gone', thumbKey: null, posterKey: null, durationSeconds: null });
    expect(await storage.get(renditionKey(originalKey, 'thumb'))).toBeNull();
    expect(store.saved).toEqual([]);
  });

  const unrenderable: Array<[string, () => Promise<Buffer>, Pick<PhotoToRender, 'mediaType' | 'mimeType'>]> = [
    ['a truncated JPEG', async () => (await landscapeImage('jpeg')).subarray(0, 300), { mediaType: 'photo', mimeType: 'image/jpeg' }],
    ['a video that is no video', async () => Buffer.alloc(8192, 1), { mediaType: 'video', mimeType: 'video/mp4' }],
  ];
  for (const [what, bytes, photo] of unrenderable) {
    it(`${what}: a non-retryable ${UNRENDERABLE_MEDIA_FAILURE} failure, nothing stored or recorded`, async () => {
      const { photoId, originalKey, store, activities } = await uploaded(await bytes(), photo);
      const failure = await failureOf(activities.renderPhotoMedia({ photoId }));
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: UNRENDERABLE_MEDIA_FAILURE, nonRetryable: true });
      expect(await storage.get(renditionKey(originalKey, photo.mediaType === 'video' ? 'poster' : 'thumb'))).toBeNull();
      expect(store.saved).toEqual([]);
      expect(readdirSync(work.dir)).toEqual([]);
    });
  }

  it('an original missing from storage is unrenderable too', async () => {
    const { photoId, originalKey, activities } = await uploaded(await landscapeImage('jpeg'), { mediaType: 'photo', mimeType: 'image/jpeg' });
    await storage.delete(originalKey);
    expect(await failureOf(activities.renderPhotoMedia({ photoId }))).toMatchObject({ type: UNRENDERABLE_MEDIA_FAILURE, nonRetryable: true });
  });

  it('storage that cannot be reached is an ordinary (retryable) error', async () => {
    const { photoId, store } = await uploaded(await landscapeImage('jpeg'), { mediaType: 'photo', mimeType: 'image/jpeg' });
    // A port nothing listens on (s3rver's port, after a second server is stopped).
    const down = await startS3Server('down');
    await down.stop();
    const activities = photoMediaActivities({ storage: S3MediaStorage.fromConfig(down.config), renditions: store, logger, workDir: work.dir });
    const failure = await failureOf(activities.renderPhotoMedia({ photoId }));
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect(store.saved).toEqual([]);
  });
});

describe('recordPhotoMediaFailure', () => {
  it('records the photo as processed without renditions', async () => {
    const { photoId, store, activities } = await uploaded(Buffer.from('x'), { mediaType: 'photo', mimeType: 'image/heic' });
    await activities.recordPhotoMediaFailure({ photoId, reason: 'unrenderable' });
    expect(store.saved).toEqual([{ photoId, renditions: NO_RENDITIONS }]);
  });

  it('does nothing for a photo that is gone', async () => {
    const { photoId, store, activities } = await uploaded(Buffer.from('x'), { mediaType: 'photo', mimeType: 'image/jpeg' });
    store.photos.delete(photoId);
    await activities.recordPhotoMediaFailure({ photoId, reason: 'gave_up' });
    expect(store.saved).toEqual([]);
  });
});
