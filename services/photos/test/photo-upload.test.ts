// POST /api/v1/photos and the media it stores, over real HTTP with real images, a real MP4 and real files on disk.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MALFORMED_TEXT_MESSAGE, WorkflowOutboxEntry } from '@tributary/kit';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MediaUrlSigner, Photo } from '../src/modules/photos/index.js';
import { LocalMediaStorage } from '../src/storage/local-media-storage.js';
import { Project } from '../src/modules/projects/index.js';
import { addProject, addToken, createTeam, startHarness, type PhotosHarness } from './helpers.js';
import { NOISE, avif, gif, heicish, jpeg, mp4, noisyJpeg, png, webp } from './support/media-fixtures.js';
import { exchangeRawHttp, rawHttpRequest } from '@tributary/kit/testing';

const SECRET = Buffer.alloc(32, 9).toString('base64');
const PHOTO_MAX_BYTES = 200_000;
const VIDEO_MAX_BYTES = 150_000;
let h: PhotosHarness;
let url: string;

beforeAll(async () => {
  h = await startHarness({ env: { PHOTO_MAX_BYTES: String(PHOTO_MAX_BYTES), VIDEO_MAX_BYTES: String(VIDEO_MAX_BYTES), SECRETS_ENCRYPTION_KEY: SECRET } });
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface PhotoBody {
  id: number;
  local_capture_id: string;
  project: { id: number; name: string } | null;
  captured_at: string | null;
  media_type: string;
  mime_type: string;
  tags: string[];
  location: { lat: number; lng: number; accuracy_m: number | null } | null;
  assignment: { source: string; distance_m: number | null; reason: string | null };
  urls: { full: string; thumb: string; annotated: null; poster: string | null };
  size_bytes: number;
  duration_seconds: number | null;
}
interface UploadAnswer {
  status: number;
  body: { data: PhotoBody; duplicate: boolean; error?: { code: string; message: string; fields?: Record<string, string[]> } };
}

type Parts = Record<string, string | string[]>;

async function upload(token: string, file: Buffer | null, parts: Parts, filename = 'capture.bin'): Promise<UploadAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) for (const item of [value].flat()) form.append(name, item);
  // A misleading name and type: the service goes by the bytes only.
  if (file) form.append('file', new Blob([new Uint8Array(file)], { type: 'application/octet-stream' }), filename);
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  return { status: res.status, body: (await res.json()) as UploadAnswer['body'] };
}

/** Every file under the media directory (temporary files and content-type records included). */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(h.mediaDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
const storedObjects = async () => (await storedFiles()).filter((file) => !file.endsWith('.content-type'));
const photoRows = (teamId: number) => h.orm.em.fork().count(Photo, { team: teamId });

async function fetchBytes(target: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(target);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('upload', () => {
  it('stores a JPEG matched by GPS: 201, assignment gps with distance, signed URLs serving the bytes, project activity touched, media workflow queued', async () => {
    const member = await createTeam(h, 'Gps Team');
    const site = await addProject(h, member.team, { name: 'Harbour', lat: -36.8433, lng: 174.7676, radiusM: 150 });
    const before = await h.orm.em.fork().findOneOrFail(Project, site.id);
    const image = await jpeg();
    const res = await upload(member.token, image, { local_capture_id: 'cap-1', captured_at: '2026-09-04T10:15:00+12:00', lat: '-36.8434', lng: '174.7677', accuracy_m: '8', description: 'North wall', tags: ['framing', 'north', 'framing'] });

    expect(res.status).toBe(201);
    expect(res.body.duplicate).toBe(false);
    const photo = res.body.data;
    expect(photo).toMatchObject({
      local_capture_id: 'cap-1',
      project: { id: site.id, name: 'Harbour' },
      captured_at: '2026-09-03T22:15:00.000Z',
      media_type: 'photo',
      mime_type: 'image/jpeg',
      description: 'North wall',
      tags: ['framing', 'north'],
      location: { lat: -36.8434, lng: 174.7677, accuracy_m: 8 },
      assignment: { source: 'gps', reason: null },
      size_bytes: image.length,
      duration_seconds: null,
      urls: { annotated: null, poster: null },
    });
    expect(photo.assignment.distance_m).toBeGreaterThan(5);
    expect(photo.assignment.distance_m).toBeLessThan(20);

    const full = await fetchBytes(photo.urls.full);
    expect(full.status).toBe(200);
    expect(full.bytes.equals(image)).toBe(true);
    expect(full.headers.get('content-type')).toBe('image/jpeg');
    expect(full.headers.get('content-length')).toBe(String(image.length));
    expect(full.headers.get('cache-control')).toMatch(/^private, max-age=\d+, immutable$/);
    // No thumbnail yet: the thumb URL serves the original, not cacheable.
    const thumb = await fetchBytes(photo.urls.thumb);
    expect(thumb.status).toBe(200);
    expect(thumb.bytes.equals(image)).toBe(true);
    expect(thumb.headers.get('cache-control')).toBe('private, no-cache');

    const after = await h.orm.em.fork().findOneOrFail(Project, site.id);
    expect(after.lastActivityAt.getTime()).toBeGreaterThan(before.lastActivityAt.getTime());
    const start = await h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId: `photo-media-${photo.id}` });
    expect(start).toMatchObject({ kind: 'start', workflowType: 'photoMediaWorkflow', taskQueue: 'photos', args: [{ photoId: photo.id }] });
    expect(await storedObjects()).toHaveLength(1);
    await h.orm.em.fork().nativeDelete(Photo, { id: photo.id });
  });

  it('accepts PNG, WebP, HEIC and an MP4 video by their bytes, whatever the file name says', async () => {
    const member = await createTeam(h, 'Formats Team');
    const cases: Array<[Buffer, string, string]> = [
      [await png(), 'image/png', 'photo'],
      [await webp(), 'image/webp', 'photo'],
      [heicish(), 'image/heic', 'photo'],
      [await mp4(), 'video/mp4', 'video'],
    ];
    for (const [index, [bytes, mime, mediaType]] of cases.entries()) {
      const res = await upload(member.token, bytes, { local_capture_id: `fmt-${index}` }, 'holiday.gif');
      expect([res.status, res.body.data.mime_type, res.body.data.media_type]).toEqual([201, mime, mediaType]);
      expect(res.body.data.assignment).toEqual({ source: 'unassigned', distance_m: null, reason: 'no_fix' });
      expect(res.body.data.location).toBeNull();
      expect(res.body.data.captured_at).toBeNull();
    }
    const video = (await upload(member.token, Buffer.alloc(0), { local_capture_id: 'fmt-3' })).body.data;
    expect(video).toMatchObject({ media_type: 'video', duration_seconds: null, urls: { poster: null, annotated: null } });
    // Before the poster exists a video's thumb is a placeholder image; the full URL is the video itself.
    const thumb = await fetchBytes(video.urls.thumb);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const whole = await fetchBytes(video.urls.full);
    expect([whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual(['video/mp4', 'bytes']);
    // A <video> element seeks with ranges.
    const ranged = await fetch(video.urls.full, { headers: { range: 'bytes=100-199' } });
    expect([ranged.status, ranged.headers.get('content-range'), ranged.headers.get('content-length')]).toEqual([206, `bytes 100-199/${whole.bytes.length}`, '100']);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.bytes.subarray(100, 200))).toBe(true);
    const poster = await fetchBytes(video.urls.full.replace('/full?', '/poster?'));
    expect(poster.status).toBe(403); // a URL edited to another rendition is not signed for it
  });

  it('answers a repeat of local_capture_id with 200 duplicate true and the stored photo: no second row, no second file', async () => {
    const member = await createTeam(h, 'Repeat Team');
    const filesBefore = (await storedObjects()).length;
    const first = await upload(member.token, await jpeg(), { local_capture_id: 'same', description: 'first' });
    // File before the id (nothing to skip), then id before the file (skipped unstored): both are the same repeat.
    const second = await upload(member.token, await png(), { local_capture_id: 'same', description: 'second' });
    const form = new FormData();
    form.append('local_capture_id', 'same');
    form.append('file', new Blob([new Uint8Array(await png())]), 'x.png');
    const third = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(member.token), body: form });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ data: first.body.data, duplicate: true });
    expect(third.status).toBe(200);
    expect(await photoRows(member.team.id)).toBe(1);
    expect((await storedObjects()).length).toBe(filesBefore + 1);
  });

  it('answers two racing copies of one capture with exactly one 201 and one 200 duplicate: one row, one stored file', async () => {
    const member = await createTeam(h, 'Race Team');
    const filesBefore = (await storedObjects()).length;
    const image = await jpeg(300, 200);
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([upload(member.token, image, { local_capture_id: `race-${round}` }), upload(member.token, image, { local_capture_id: `race-${round}` })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
      expect(answers.map((a) => a.body.duplicate).sort()).toEqual([false, true]);
      expect(answers[0].body.data.id).toBe(answers[1].body.data.id);
    }
    expect(await photoRows(member.team.id)).toBe(3);
    expect((await storedObjects()).length).toBe(filesBefore + 3);
  });

  it('keeps local_capture_id per team: another team may use the same id', async () => {
    const a = await createTeam(h, 'Team A');
    const b = await createTeam(h, 'Team B');
    expect((await upload(a.token, await jpeg(), { local_capture_id: 'shared' })).status).toBe(201);
    expect((await upload(b.token, await jpeg(), { local_capture_id: 'shared' })).status).toBe(201);
  });
});

describe('assignment', () => {
  it('manual with project_id (distance when both positions are known); 422 for another team\'s or an archived project', async () => {
    const member = await createTeam(h, 'Manual Team');
    const located = await addProject(h, member.team, { name: 'Located', lat: 10, lng: 10 });
    const archived = await addProject(h, member.team, { name: 'Old', status: 'archived' });
    const foreign = await createTeam(h, 'Foreign Team');
    const withFix = await upload(member.token, await jpeg(), { local_capture_id: 'm1', project_id: String(located.id), lat: '10.001', lng: '10', accuracy_m: '5' });
    expect(withFix.body.data.assignment.source).toBe('manual');
    expect(withFix.body.data.assignment.distance_m).toBeCloseTo(111.2, 0);
    const noCoordinates = await upload(member.token, await jpeg(), { local_capture_id: 'm2', project_id: String(member.project.id), lat: '10', lng: '10' });
    expect(noCoordinates.body.data.assignment).toEqual({ source: 'manual', distance_m: null, reason: null });
    expect(noCoordinates.body.data.project).toEqual({ id: member.project.id, name: member.project.name });
    for (const projectId of [foreign.project.id, archived.id, 999_999]) {
      const refused = await upload(member.token, await jpeg(), { local_capture_id: `m-${projectId}`, project_id: String(projectId) });
      expect(refused.status).toBe(422);
      expect(refused.body.error?.fields).toEqual({ project_id: ['No active project with this id in your team.'] });
    }
    expect(await photoRows(member.team.id)).toBe(2);
  });

  it('leaves an ambiguous, inaccurate or remote capture unassigned with its reason', async () => {
    const member = await createTeam(h, 'Unassigned Team');
    await addProject(h, member.team, { name: 'East', lat: 20, lng: 20.0005 });
    await addProject(h, member.team, { name: 'West', lat: 20, lng: 19.9995 });
    const cases: Array<[Parts, string]> = [
      [{ lat: '20', lng: '20', accuracy_m: '5' }, 'ambiguous'],
      [{ lat: '20', lng: '20', accuracy_m: '500' }, 'low_accuracy'],
      [{ lat: '25', lng: '25', accuracy_m: '5' }, 'outside_radius'],
      [{ lat: '20', lng: '20' }, 'no_fix'],
    ];
    for (const [index, [fix, reason]] of cases.entries()) {
      const res = await upload(member.token, await jpeg(), { local_capture_id: `u${index}`, ...fix });
      expect(res.body.data).toMatchObject({ project: null, assignment: { source: 'unassigned', distance_m: null, reason } });
    }
  });
});

describe('refusals leave nothing behind', () => {
  async function expectNothingStored(teamId: number, filesBefore: number): Promise<void> {
    expect(await photoRows(teamId)).toBe(0);
    expect((await storedFiles()).length).toBe(filesBefore);
  }

  it('415 for bytes that are not an accepted photo or video (GIF, AVIF, text), whatever name and type they claim', async () => {
    const member = await createTeam(h, 'Refused Type Team');
    const filesBefore = (await storedFiles()).length;
    for (const bytes of [await gif(), await avif(), Buffer.from('%PDF-1.4 not really a photo'.repeat(300))]) {
      const res = await upload(member.token, bytes, { local_capture_id: 'x' }, 'photo.jpg');
      expect(res.status).toBe(415);
      expect(res.body.error).toEqual({ code: 'unsupported_media_type', message: 'The file must be a JPEG, PNG, HEIC/HEIF or WebP photo, or an MP4 or QuickTime video (judged by its bytes).' });
    }
    const json = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: { ...bearer(member.token), 'content-type': 'application/json' }, body: '{"local_capture_id":"x"}' });
    expect(json.status).toBe(415);
    await expectNothingStored(member.team.id, filesBefore);
  });

  it('413 for a photo over PHOTO_MAX_BYTES and a video over VIDEO_MAX_BYTES (a photo that size is fine)', async () => {
    const member = await createTeam(h, 'Too Large Team');
    const filesBefore = (await storedFiles()).length;
    const big = await noisyJpeg(400);
    expect(big.length).toBeGreaterThan(PHOTO_MAX_BYTES);
    const res = await upload(member.token, big, { local_capture_id: 'big' });
    expect(res.status).toBe(413);
    expect(res.body.error).toEqual({ code: 'payload_too_large', message: `The photo is larger than the limit of ${PHOTO_MAX_BYTES} bytes.` });
    const video = await mp4(NOISE);
    expect(video.length).toBeGreaterThan(VIDEO_MAX_BYTES);
    const refusedVideo = await upload(member.token, video, { local_capture_id: 'big-video' });
    expect(refusedVideo.status).toBe(413);
    expect(refusedVideo.body.error?.message).toBe(`The video is larger than the limit of ${VIDEO_MAX_BYTES} bytes.`);
    await expectNothingStored(member.team.id, filesBefore);
    const sized = await noisyJpeg(330);
    expect(sized.length).toBeGreaterThan(VIDEO_MAX_BYTES);
    expect(sized.length).toBeLessThan(PHOTO_MAX_BYTES);
    expect((await upload(member.token, sized, { local_capture_id: 'photo-sized' })).status).toBe(201);
  });

  it('413 at once for a body announced larger than any file may be, before reading it', async () => {
    const member = await createTeam(h, 'Announced Team');
    const announced = PHOTO_MAX_BYTES + 2 * 1024 * 1024;
    const res = await exchangeRawHttp(url, rawHttpRequest(`POST /api/v1/photos HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${member.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${announced}\r\n\r\n--b\r\n`));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('422 for a file cut short (a JPEG without its end, an MP4 missing its tail) or empty', async () => {
    const member = await createTeam(h, 'Truncated Team');
    const filesBefore = (await storedFiles()).length;
    const image = await jpeg(200, 200);
    const video = await mp4();
    for (const bytes of [image.subarray(0, image.length - 100), video.subarray(0, video.length - 1000), heicish().subarray(0, 3000)]) {
      const res = await upload(member.token, bytes, { local_capture_id: 'cut' });
      expect(res.status).toBe(422);
      expect(res.body.error?.fields).toEqual({ file: ['The file is incomplete or malformed (it ends before its own structure does).'] });
    }
    expect((await upload(member.token, Buffer.alloc(0), { local_capture_id: 'empty' })).body.error?.fields).toEqual({ file: ['The file is empty.'] });
    await expectNothingStored(member.team.id, filesBefore);
  });

  it('422 naming each bad text part, with or without the file; the file is not kept', async () => {
    const member = await createTeam(h, 'Fields Team');
    const filesBefore = (await storedFiles()).length;
    const fieldsOf = async (file: Buffer | null, parts: Parts) => {
      const res = await upload(member.token, file, parts);
      expect(res.status).toBe(422);
      return res.body.error?.fields;
    };
    expect(await fieldsOf(await jpeg(), {})).toEqual({ local_capture_id: ['This field is required.'] });
    expect(await fieldsOf(null, { local_capture_id: 'a' })).toEqual({ file: ['This field is required.'] });
    expect(Object.keys((await fieldsOf(await jpeg(), { local_capture_id: 'a', lat: '10' })) ?? {})).toEqual(['lng']);
    expect(Object.keys((await fieldsOf(await jpeg(), { local_capture_id: 'a', accuracy_m: '5' })) ?? {})).toEqual(['accuracy_m']);
    expect(Object.keys((await fieldsOf(await jpeg(), { local_capture_id: 'a', lat: '91', lng: 'east', captured_at: 'yesterday' })) ?? {}).sort()).toEqual(['captured_at', 'lat', 'lng']);
    expect(await fieldsOf(await jpeg(), { local_capture_id: 'a', colour: 'red' })).toEqual({ colour: ['This field is not allowed.'] });
    // An id read before the file (looked up to skip a repeat) that PostgreSQL cannot hold: 422, not a 500 (found by the fuzz suite).
    expect(await fieldsOf(await jpeg(), { local_capture_id: 'a\u0000b' })).toEqual({ local_capture_id: [MALFORMED_TEXT_MESSAGE] });
    expect(await fieldsOf(await jpeg(), { local_capture_id: ['a', 'b'] })).toEqual({ local_capture_id: ['Send this part once.'] });
    expect(await fieldsOf(await jpeg(), { local_capture_id: 'a', file: 'not a file' })).toEqual({ file: ['Send the media as a file part (with a filename).'] });
    await expectNothingStored(member.team.id, filesBefore);
  });

  it('400 for a multipart body without its closing boundary; a client that disconnects mid-file leaves nothing', async () => {
    const member = await createTeam(h, 'Malformed Team');
    const filesBefore = (await storedFiles()).length;
    const boundary = 'XyZboundary';
    const image = await jpeg(200, 200);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="local_capture_id"\r\n\r\nm1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      image,
    ]);
    const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: { ...bearer(member.token), 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'malformed_request', message: 'The multipart body is malformed or was cut short.' } });
    const noBoundary = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: { ...bearer(member.token), 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).toBe(415);

    await new Promise<void>((resolve) => {
      const req = http.request(`${url}/api/v1/photos`, { method: 'POST', headers: { ...bearer(member.token), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length * 2) } });
      req.on('error', () => resolve());
      req.write(body, () => setTimeout(() => req.destroy(), 300));
    });
    // The service notices the disconnect, removes the partial object and stores no row.
    for (let i = 0; i < 40 && (await storedFiles()).length !== filesBefore; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    await expectNothingStored(member.team.id, filesBefore);
  });
});

describe('access', () => {
  it('a device token (capture) may upload; a token without photos:write gets 403 naming it; no token 401', async () => {
    const member = await createTeam(h, 'Scopes Team');
    const device = await addToken(h, member, ['capture']);
    const reader = await addToken(h, member, ['photos:read']);
    expect((await upload(device, await jpeg(), { local_capture_id: 'd1' })).status).toBe(201);
    const refused = await upload(reader, await jpeg(), { local_capture_id: 'd2' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', missing_scope: 'photos:write' });
    const anonymous = await fetch(`${url}/api/v1/photos`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
  });
});

describe('renditions written by the media workflow', () => {
  it('once thumb_key, poster_key and duration_seconds are set, thumb serves the thumbnail (cacheable) and a video shows its poster and duration', async () => {
    const member = await createTeam(h, 'Renditions Team');
    const storage = new LocalMediaStorage(h.mediaDir);
    const photo = (await upload(member.token, await jpeg(), { local_capture_id: 'r-photo' })).body.data;
    const video = (await upload(member.token, await mp4(), { local_capture_id: 'r-video' })).body.data;
    const thumbBytes = await png();
    const posterBytes = await jpeg(32, 18);
    await storage.put(`teams/${member.team.id}/photos/r1/thumb`, Readable.from([thumbBytes]), 'image/png');
    await storage.put(`teams/${member.team.id}/photos/r2/poster`, Readable.from([posterBytes]), 'image/jpeg');
    const em = h.orm.em.fork();
    await em.nativeUpdate(Photo, { id: photo.id }, { thumbKey: `teams/${member.team.id}/photos/r1/thumb`, width: 64, height: 48, mediaProcessedAt: new Date() });
    await em.nativeUpdate(Photo, { id: video.id }, { posterKey: `teams/${member.team.id}/photos/r2/poster`, durationSeconds: 1, mediaProcessedAt: new Date() });

    const thumb = await fetchBytes(photo.urls.thumb);
    expect(thumb.bytes.equals(thumbBytes)).toBe(true);
    expect([thumb.headers.get('content-type'), thumb.headers.get('cache-control')]).toEqual(['image/png', expect.stringMatching(/^private, max-age=\d+, immutable$/)]);
    const shown = (await (await fetch(`${url}/api/v1/photos/${video.id}`, { headers: bearer(member.token) })).json()) as { data: PhotoBody };
    expect(shown.data.duration_seconds).toBe(1);
    expect(shown.data.urls.poster).toEqual(expect.stringContaining(`/api/v1/media/${video.id}/poster?`));
    expect((await fetchBytes(shown.data.urls.poster!)).bytes.equals(posterBytes)).toBe(true);
    // A video's thumb stands in with the poster until its own thumbnail exists.
    expect((await fetchBytes(shown.data.urls.thumb)).bytes.equals(posterBytes)).toBe(true);
  });
});

describe('signed media URLs', () => {
  it('403 for an altered, missing or expired signature; 404 for an unknown photo or rendition; another team\'s photo only through its URL', async () => {
    const member = await createTeam(h, 'Signed Team');
    const photo = (await upload(member.token, await jpeg(), { local_capture_id: 's1' })).body.data;
    const full = new URL(photo.urls.full);
    const signature = full.searchParams.get('signature')!;
    const altered = new URL(full);
    altered.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    const stretched = new URL(full);
    stretched.searchParams.set('expires', String(Number(full.searchParams.get('expires')) + 3600));
    const unsigned = `${url}${full.pathname}`;
    for (const target of [altered.toString(), stretched.toString(), unsigned, `${unsigned}?expires=abc&signature=x`]) {
      const res = await fetch(target);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'forbidden', message: 'This media link is invalid or has expired.' } });
    }
    const past = new MediaUrlSigner(SECRET, url, () => new Date(Date.now() - 3 * 86_400_000));
    expect((await fetch(past.url(photo.id, 'full'))).status).toBe(403);
    const current = new MediaUrlSigner(SECRET, url);
    expect((await fetch(current.url(photo.id, 'full'))).status).toBe(200);
    expect((await fetch(current.url(photo.id, 'poster'))).status).toBe(404);
    expect((await fetch(current.url(987_654, 'full'))).status).toBe(404);
    expect((await fetch(`${url}/api/v1/media/${photo.id}/original${full.search}`)).status).toBe(404);
    // Signed with another key: refused.
    expect((await fetch(new MediaUrlSigner(Buffer.alloc(32, 1).toString('base64'), url).url(photo.id, 'full'))).status).toBe(403);
  });
});
