// Decompression bombs through the whole capture path (README Decisions, "Media pixel limits"): a small upload that
// declares an enormous picture is stored as uploaded, its rendering fails at once as unrenderable (the existing failure
// path), no rendition is written and the service keeps answering. Real HTTP, PostgreSQL, Temporal, disk, sharp, ffmpeg.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createLogger } from '@tributary/kit';
import { waitFor } from '@tributary/kit/testing';
import { photoMediaWorkflowId, type PhotoMediaWorkflowResult } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { Photo } from '../src/modules/photos/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createTeam, startHarness, type PhotosHarness } from './helpers.js';
import { pngBomb, tempDir, writeLargeFrameVideo } from './support/media-fixtures.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

let temporal: TimeSkippingEnvironment;
let h: PhotosHarness;
let worker: RunningWorker;
const fixtures = tempDir('photos-media-limits');

beforeAll(async () => {
  temporal = await startTimeSkippingEnvironment();
  h = await startHarness({ env: { TEMPORAL_ADDRESS: temporal.address } });
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'photos', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: [] },
    env: { NODE_ENV: 'test', MEDIA_STORAGE_DIR: h.mediaDir },
  });
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await temporal?.teardown();
  await h?.close();
  fixtures.cleanup();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test

async function upload(token: string, file: Buffer, localCaptureId: string): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  form.append('local_capture_id', localCaptureId);
  form.append('file', new Blob([new Uint8Array(file)]), 'capture');
  const res = await fetch(`${h.service.url}/api/v1/photos`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Uploads `file`, waits for its media workflow, and answers what it left: the record, the workflow's result, the files. */
async function uploadAndProcess(file: Buffer, localCaptureId: string) {
  const member = await createTeam(h, `Bomb ${localCaptureId}`);
  const uploaded = await upload(member.token, file, localCaptureId);
  expect(uploaded.status).toBe(201);
  const id = uploaded.body.data.id as number;
  const result = (await temporal.client.workflow.getHandle(photoMediaWorkflowId(id)).result()) as PhotoMediaWorkflowResult;
  const stored = await waitFor(async () => h.orm.em.fork().findOneOrFail(Photo, { id }), (photo) => photo.mediaProcessedAt != null, 30_000);
  const files = await readdir(join(h.mediaDir, dirname(stored.originalKey)));
  const shown = await fetch(`${h.service.url}/api/v1/photos/${id}`, { headers: { authorization: `Bearer ${member.token}` } });
  return { result, stored, files: files.sort(), shown: { status: shown.status, body: (await shown.json()) as Json } };
}

describe('decompression bombs', () => {
  it('a 31 kB PNG declaring 16 000 × 16 000 pixels (256 MP, under sharp\'s default limit): failed as unrenderable, no thumbnail', async () => {
    const bomb = pngBomb(16_000, 16_000);
    expect(bomb.length).toBeLessThan(100_000);
    const { result, stored, files, shown } = await uploadAndProcess(bomb, 'png-bomb');
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable' });
    expect({ thumbKey: stored.thumbKey, width: stored.width, height: stored.height }).toEqual({ thumbKey: null, width: null, height: null });
    // Only the original (and its content type) in the photo's folder: no rendition, no temporary file.
    expect(files).toEqual(['original', 'original.content-type']);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ media_type: 'photo', mime_type: 'image/png', size_bytes: bomb.length });
  }, 120_000);

  it('an MP4 whose frames are 8 192 × 8 192 (67 MP, beyond any phone\'s): failed as unrenderable, no poster', async () => {
    const video = readFileSync(writeLargeFrameVideo(join(fixtures.dir, 'huge-frame.mp4'), 8192, 8192));
    const { result, stored, files, shown } = await uploadAndProcess(video, 'video-bomb');
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable' });
    expect({ posterKey: stored.posterKey, thumbKey: stored.thumbKey }).toEqual({ posterKey: null, thumbKey: null });
    expect(files).toEqual(['original', 'original.content-type']);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ media_type: 'video', urls: { poster: null } });
  }, 120_000);
});
