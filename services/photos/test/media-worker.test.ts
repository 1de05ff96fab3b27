// The photo media workflow end to end on the photos worker: the kit's service worker with photos' worker definition
// (media activities registered through its `activities` hook) on the time-skipping Temporal server, real media in a
// real S3-compatible store (s3rver). Only the photo record is an in-memory port (the photos module owns the real one).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger, migrateUp } from '@tributary/kit';
import { startServiceWorker, type RunningWorker } from '@tributary/kit/runtime';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { TASK_QUEUES, WORKFLOW_TYPES, photoMediaWorkflowId, type PhotoMediaWorkflowResult } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { assertExecutable, MediaBinaryError, NO_RENDITIONS, renditionKey, type PhotoToRender } from '../src/media/index.js';
import { openDatabase } from '../src/service.js';
import { SERVICE_NAME } from '../src/service-name.js';
import { S3MediaStorage } from '../src/storage/s3-media-storage.js';
import { photosWorker, photosWorkerDefinition } from '../src/worker.js';
import { writeHevcHeic } from './support/heic.js';
import { InMemoryRenditionStore } from './support/media-doubles.js';
import { jpegWithOrientation6, tempDir, writeTestVideo } from './support/media-fixtures.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

let env: TimeSkippingEnvironment;
let db: TestDatabase;
let orm: MikroORM;
let s3: TestS3Server;
let storage: S3MediaStorage;
let worker: RunningWorker;
const store = new InMemoryRenditionStore();
const fixtures = tempDir('photos-media-worker');
const logger = createLogger({ service: SERVICE_NAME, level: 'silent' });
let nextPhotoId = 1;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  db = await createTestDatabase('photos_media_worker');
  orm = await openDatabase(db.url);
  await migrateUp(orm);
  s3 = await startS3Server();
  storage = S3MediaStorage.fromConfig(s3.config);
  worker = await startServiceWorker(
    { name: SERVICE_NAME, worker: photosWorkerDefinition(() => ({ storage, renditions: store })) },
    { orm, logger, config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: [] } },
  );
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await env?.teardown();
  await s3?.stop();
  await orm?.close();
  await db?.drop();
  fixtures.cleanup();
});

/** Stores the original and the photo as the upload does, then starts the workflow as the upload does after its commit. */
async function uploadAndProcess(bytes: Buffer, photo: Pick<PhotoToRender, 'mediaType' | 'mimeType'>) {
  const photoId = nextPhotoId++;
  const originalKey = `teams/5/photos/${crypto.randomUUID()}/original`;
  await storage.put(originalKey, Readable.from([bytes]), photo.mimeType);
  store.photos.set(photoId, { teamId: 5, originalKey, ...photo });
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.photoMedia, {
    taskQueue: TASK_QUEUES.photos,
    workflowId: photoMediaWorkflowId(photoId),
    args: [{ photoId }],
  });
  const result = (await handle.result()) as PhotoMediaWorkflowResult;
  return { photoId, originalKey, result, saved: store.saved.filter((s) => s.photoId === photoId).map((s) => s.renditions) };
}

describe('photoMediaWorkflow on the photos worker', () => {
  it('a photo: the thumbnail is stored next to the original and recorded', async () => {
    const { originalKey, result, saved } = await uploadAndProcess(await jpegWithOrientation6(640, 320), { mediaType: 'photo', mimeType: 'image/jpeg' });
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    expect(saved).toEqual([{ thumbKey: renditionKey(originalKey, 'thumb'), posterKey: null, durationSeconds: null, width: 320, height: 640 }]);
    expect(await storage.get(renditionKey(originalKey, 'thumb'))).toMatchObject({ contentType: 'image/jpeg' });
  });

  it('a video: the poster and duration are recorded', async () => {
    const video = readFileSync(writeTestVideo(join(fixtures.dir, 'clip.mp4'), { seconds: 2 }));
    const { originalKey, result, saved } = await uploadAndProcess(video, { mediaType: 'video', mimeType: 'video/mp4' });
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ thumbKey: null, posterKey: renditionKey(originalKey, 'poster'), width: 320, height: 240 });
    expect(saved[0]!.durationSeconds).toBeCloseTo(2, 0);
  });

  it('a corrupt photo: failed at once as unrenderable, recorded without renditions', async () => {
    const { result, saved } = await uploadAndProcess(Buffer.from('\xff\xd8\xff\xe0 not really a jpeg', 'latin1'), { mediaType: 'photo', mimeType: 'image/jpeg' });
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable' });
    expect(saved).toEqual([NO_RENDITIONS]);
  });

  it('an iPhone-style HEVC HEIC: stored as uploaded, recorded without a thumbnail (README, Decisions: HEIC/HEIF)', async () => {
    const { originalKey, result, saved } = await uploadAndProcess(writeHevcHeic(fixtures.dir), { mediaType: 'photo', mimeType: 'image/heic' });
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable' });
    expect(saved).toEqual([NO_RENDITIONS]);
    expect(await storage.get(originalKey)).toMatchObject({ contentType: 'image/heic' });
    expect(await storage.get(renditionKey(originalKey, 'thumb'))).toBeNull();
  });
});

describe('the photos worker definition', () => {
  it('registers the media activities through its activities hook; the service worker wires its own storage and records', () => {
    const context = { orm, logger, env: {}, outbox: undefined as never, temporal: undefined as never };
    const wired = photosWorkerDefinition(() => ({ storage, renditions: store })).activities!(context);
    expect(Object.keys(wired).sort()).toEqual(['recordPhotoMediaFailure', 'renderPhotoMedia']);
    // The service's own definition adds the report activities (test/reports.test.ts runs them).
    expect(Object.keys(photosWorker.activities!(context)).sort()).toEqual(['recordPhotoMediaFailure', 'recordPhotosReportFailure', 'renderPhotoMedia', 'renderPhotosReport']);
  });

  it('a binary without run bits is refused with the fix named', () => {
    const path = join(fixtures.dir, 'ffmpeg');
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o644);
    expect(() => assertExecutable('ffmpeg', path)).toThrow(MediaBinaryError);
    expect(() => assertExecutable('ffmpeg', path)).toThrow(`npm rebuild @ffmpeg-installer/${process.platform}-${process.arch}`);
    chmodSync(path, 0o744);
    expect(() => assertExecutable('ffmpeg', path)).not.toThrow();
  });
});
