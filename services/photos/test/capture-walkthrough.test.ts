// The walkthrough as one test, on each storage (a real s3rver, and the local disk `npm start` uses): a crew member signs in with a device
// id, bootstraps, reports a heartbeat, uploads a photo that matches a project by GPS, uploads the same capture again
// (duplicate), fetches the thumbnail photos' own worker made, sees a capture between two overlapping projects left
// unassigned as ambiguous, and uploads a video that gets its duration and poster; the office's webhook endpoint
// receives photo.created with data byte for byte the REST resource. Everything real: PostgreSQL, Temporal, HTTP, TLS,
// S3, sharp and ffmpeg.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, generateSecretBoxKey, verifyStandardWebhook } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import sharp from 'sharp';
import { Photo } from '../src/modules/photos/index.js';
import { DEMO_USER_EMAIL, DEMO_USER_PASSWORD, seedDemoData } from '../src/seed.js';
import { LocalMediaStorage, S3MediaStorage } from '../src/storage/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { startHarness, type PhotosHarness } from './helpers.js';
import { jpeg, mp4 } from './support/media-fixtures.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];
const APARTMENTS = { lat: -36.8433, lng: 174.7676 };
const BETWEEN_APARTMENTS_AND_CAR_PARK = { lat: -36.8433, lng: 174.7685 };

const STORAGES = ['S3-compatible storage', 'local disk'] as const;

describe.each(STORAGES)('the capture path, end to end, on %s', (storage) => {
  let temporal: TimeSkippingEnvironment;
  let s3: TestS3Server | undefined;
  let h: PhotosHarness;
  let receiver: HttpsReceiver;
  let worker: RunningWorker;
  let url: string;

  beforeAll(async () => {
    temporal = await startTimeSkippingEnvironment();
    s3 = storage === 'local disk' ? undefined : await startS3Server();
    const s3Env: Record<string, string> = s3 ? { ...s3.config, S3_FORCE_PATH_STYLE: String(s3.config.S3_FORCE_PATH_STYLE) } : {};
    const env = { ...s3Env, SECRETS_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), TEMPORAL_ADDRESS: temporal.address };
    h = await startHarness({ env });
    url = h.service.url;
    await seedDemoData(h.orm.em.fork());
    receiver = await startHttpsReceiver();
    worker = await startWorker({
      orm: h.orm,
      logger: createLogger({ service: 'photos', level: 'silent' }),
      config: { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
      // The worker reads its storage from the same env as the service (the harness's MEDIA_STORAGE_DIR for the disk).
      env: { ...env, MEDIA_STORAGE_DIR: h.mediaDir },
    });
  }, 180_000);

  afterAll(async () => {
    await worker?.shutdown();
    await temporal?.teardown();
    await receiver?.close();
    await h?.close();
    await s3?.stop();
  });

  async function login(body: object): Promise<string> {
    const res = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { token: string } }).data.token;
  }

  async function upload(token: string, file: Buffer, filename: string, parts: Record<string, string>) {
    const form = new FormData();
    for (const [name, value] of Object.entries(parts)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(file)]), filename);
    const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, text: await res.text() };
  }

  interface PhotoResource {
    id: number;
    project: { id: number; name: string } | null;
    assignment: { source: string; distance_m: number | null; reason: string | null };
    urls: { full: string; thumb: string; annotated: null; poster: string | null };
    duration_seconds: number | null;
  }

  const processed = (id: number) => waitFor(async () => h.orm.em.fork().findOneOrFail(Photo, { id }), (photo) => photo.mediaProcessedAt != null, 60_000);

  it('sign in with a device, bootstrap, upload matched by GPS, duplicate, thumbnail, ambiguous, video, photo.created', async () => {
    const office = await login({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD });
    const hook = await fetch(`${url}/api/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${office}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/capture-hook`, events: ['photo.created', 'photo.updated'] }),
    });
    const { secret } = ((await hook.json()) as { data: { secret: string } }).data;

    const device = await login({ email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD, device_id: 'walkthrough-phone', device_name: 'Site iPhone', platform: 'ios' });
    const bearer = { authorization: `Bearer ${device}` };
    const bootstrap = (await (await fetch(`${url}/api/v1/bootstrap`, { headers: bearer })).json()) as { data: { projects: Array<{ name: string; coordinates: unknown }> } };
    expect(bootstrap.data.projects.map((p) => p.name)).toEqual(expect.arrayContaining(['Harbour View Apartments', 'Harbour View Car Park']));
    const heartbeat = await fetch(`${url}/api/v1/devices/heartbeat`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ queue_depth: 3, app_version: '1.0.0' }) });
    expect(heartbeat.status).toBe(200);

    // A photo at the apartments with a good fix: matched by GPS.
    const photo = await jpeg(800, 600);
    const capture = { local_capture_id: 'walkthrough-1', lat: String(APARTMENTS.lat), lng: String(APARTMENTS.lng), accuracy_m: '8', captured_at: '2026-11-23T09:00:00Z' };
    const first = await upload(device, photo, 'IMG_0001.jpg', capture);
    expect(first.status).toBe(201);
    const created = JSON.parse(first.text) as { data: PhotoResource; duplicate: boolean };
    expect(created.duplicate).toBe(false);
    expect(created.data.project?.name).toBe('Harbour View Apartments');
    expect(created.data.assignment).toEqual({ source: 'gps', distance_m: expect.any(Number), reason: null });

    // The same capture again: 200, duplicate, the same photo, nothing new stored.
    const again = await upload(device, photo, 'IMG_0001.jpg', capture);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toMatchObject({ duplicate: true, data: { id: created.data.id } });
    expect(await h.orm.em.fork().count(Photo, { localCaptureId: 'walkthrough-1' })).toBe(1);

    // The worker renders the thumbnail into S3; its URL then answers a 320 px JPEG.
    const stored = await processed(created.data.id);
    expect(stored.thumbKey).not.toBeNull();
    const media = s3 ? S3MediaStorage.fromConfig(s3.config) : new LocalMediaStorage(h.mediaDir);
    expect(await media.get(stored.thumbKey!)).not.toBeNull();
    const thumb = await fetch(created.data.urls.thumb);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    expect((await fetch(created.data.urls.full)).headers.get('content-length')).toBe(String(photo.length));

    // Between the apartments and the car park: both circles could hold the fix, so it is left unassigned.
    const between = { lat: String(BETWEEN_APARTMENTS_AND_CAR_PARK.lat), lng: String(BETWEEN_APARTMENTS_AND_CAR_PARK.lng), accuracy_m: '5' };
    const ambiguous = await upload(device, await jpeg(), 'IMG_0002.jpg', { local_capture_id: 'walkthrough-2', ...between });
    expect(ambiguous.status).toBe(201);
    expect((JSON.parse(ambiguous.text) as { data: PhotoResource }).data).toMatchObject({ project: null, assignment: { source: 'unassigned', distance_m: null, reason: 'ambiguous' } });
    const nearby = (await (await fetch(`${url}/api/v1/projects/nearby?${new URLSearchParams(between)}`, { headers: bearer })).json()) as { data: { reason: string; candidates: Array<{ could_contain: boolean }> } };
    expect(nearby.data.reason).toBe('ambiguous');
    expect(nearby.data.candidates.filter((c) => c.could_contain)).toHaveLength(2);

    // A video: its duration and poster arrive once the worker has probed it.
    const video = await upload(device, await mp4(), 'clip.mp4', { local_capture_id: 'walkthrough-3', project_id: String(created.data.project!.id) });
    expect(video.status).toBe(201);
    const videoId = (JSON.parse(video.text) as { data: PhotoResource }).data.id;
    await processed(videoId);
    const shown = ((await (await fetch(`${url}/api/v1/photos/${videoId}`, { headers: bearer })).json()) as { data: PhotoResource }).data;
    expect(shown.duration_seconds).toBeGreaterThan(0.5);
    expect(shown.urls.poster).not.toBeNull();
    const poster = await fetch(shown.urls.poster!);
    expect([poster.status, poster.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    // photo.created reached the office, signed, its data the very text of the upload's resource.
    const hooks = await waitFor(async () => receiver.requests.filter((r) => r.path === '/capture-hook'), (requests) => requests.length >= 3, 30_000);
    const firstHook = hooks.find((r) => r.body.toString('utf8').includes('"local_capture_id":"walkthrough-1"'))!;
    expect(verifyStandardWebhook(secret, firstHook.headers, firstHook.body)).toEqual({ ok: true });
    expect(firstHook.body.toString('utf8')).toContain(`"type":"photo.created"`);
    expect(firstHook.body.toString('utf8')).toContain(`"data":${JSON.stringify(created.data)}}`);

    // The office captions it: photo.updated with the PATCH answer's resource; naming the same caption again is no update.
    const edit = () =>
      fetch(`${url}/api/v1/photos/${created.data.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${office}`, 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'North stair, level 2' }),
      });
    const edited = await edit();
    expect(edited.status).toBe(200);
    const editedData = (JSON.parse(await edited.text()) as { data: unknown }).data;
    const updates = await waitFor(async () => receiver.requests.filter((r) => r.body.toString('utf8').includes('"type":"photo.updated"')), (r) => r.length >= 1, 30_000);
    expect(updates[0]!.body.toString('utf8')).toContain(`"data":${JSON.stringify(editedData)}}`);
    expect((await edit()).status).toBe(200);
    const deliveries = await h.orm.em.fork().getConnection().execute<Array<{ n: string }>>(`select count(*) as n from webhook_deliveries where event_name = 'photo.updated'`);
    expect(Number(deliveries[0]!.n)).toBe(1);
  }, 150_000);
});
