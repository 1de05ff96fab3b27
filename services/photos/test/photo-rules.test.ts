// The pure parts of photos: container completeness, signed media URLs, which object answers a rendition, assignment
// and the before/after pairing rules; and the local storage's atomic writes.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ContainerCheck, TAIL_WINDOW, type ContainerFormat } from '../src/modules/photos/media-integrity.js';
import { ByteRangeSlice, byteRange } from '../src/modules/photos/media-range.js';
import { renditionSource } from '../src/modules/photos/media-rendition.js';
import { MediaUrlSigner } from '../src/modules/photos/media-urls.js';
import { assignmentFromMatch, chosenAssignment } from '../src/modules/photos/photo-assignment.js';
import { OTHER_PROJECT, PHOTO_NOT_FOUND, SAME_PHOTO, UNASSIGNED_PHOTO, WRONG_ORDER, pairProblems } from '../src/modules/photo-groups/photo-group-rules.js';
import { LocalMediaStorage } from '../src/storage/local-media-storage.js';
import { heicish, jpeg, mp4, png, webp } from './support/media-fixtures.js';

/** Feeds `bytes` in chunks of `size` (headers and markers split across chunks). */
function completeIn(format: ContainerFormat, bytes: Buffer, size: number): boolean {
  const check = new ContainerCheck(format);
  for (let offset = 0; offset < bytes.length; offset += size) check.update(bytes.subarray(offset, offset + size));
  return check.complete();
}

describe('ContainerCheck', () => {
  it.each([1, 7, 4096])('accepts whole files and refuses cut ones, fed in chunks of %i bytes', async (size) => {
    const files: Array<[ContainerFormat, Buffer]> = [['jpeg', await jpeg()], ['png', await png()], ['webp', await webp()], ['isobmff', heicish()], ['isobmff', await mp4()]];
    for (const [format, bytes] of files) {
      expect(completeIn(format, bytes, size)).toBe(true);
      expect(completeIn(format, bytes.subarray(0, bytes.length - 3), size)).toBe(false);
      expect(completeIn(format, bytes.subarray(0, Math.floor(bytes.length / 2)), size)).toBe(false);
    }
  });

  it('allows a trailer after a JPEG\'s end marker within the tail window, and refuses boxes that overrun the file', async () => {
    const image = await jpeg();
    expect(completeIn('jpeg', Buffer.concat([image, Buffer.alloc(1000, 1)]), 512)).toBe(true);
    expect(completeIn('jpeg', Buffer.concat([image, Buffer.alloc(TAIL_WINDOW, 1)]), 512)).toBe(false);
    const box = Buffer.alloc(16);
    box.writeUInt32BE(4, 0); // smaller than its own header
    expect(completeIn('isobmff', box, 16)).toBe(false);
    const toEnd = Buffer.concat([heicish(), Buffer.from([0, 0, 0, 0, 0x6d, 0x64, 0x61, 0x74, 1, 2, 3])]);
    expect(completeIn('isobmff', toEnd, 5)).toBe(true);
  });
});

describe('MediaUrlSigner', () => {
  const secret = Buffer.alloc(32, 3).toString('base64');
  const at = (iso: string) => () => new Date(iso);

  it('signs photo, rendition and an expiry rounded up to the hour, at least a day ahead; checks in constant time', () => {
    const signer = new MediaUrlSigner(secret, 'https://photos.example', at('2026-09-04T10:20:00Z'));
    const url = new URL(signer.url(7, 'thumb'));
    expect(url.origin + url.pathname).toBe('https://photos.example/api/v1/media/7/thumb');
    const expires = Number(url.searchParams.get('expires'));
    expect(new Date(expires * 1000).toISOString()).toBe('2026-09-05T11:00:00.000Z');
    const signature = url.searchParams.get('signature')!;
    expect(signer.check(7, 'thumb', expires, signature)).toBe('valid');
    expect(signer.check(8, 'thumb', expires, signature)).toBe('invalid');
    expect(signer.check(7, 'full', expires, signature)).toBe('invalid');
    expect(signer.check(7, 'thumb', expires + 1, signature)).toBe('invalid');
    expect(signer.check(7, 'thumb', expires, 'short')).toBe('invalid');
    // The same URL for every read within the hour.
    expect(new MediaUrlSigner(secret, 'https://photos.example', at('2026-09-04T10:59:59Z')).url(7, 'thumb')).toBe(url.toString());
    expect(new MediaUrlSigner(secret, 'https://photos.example', at('2026-09-05T11:00:00Z')).check(7, 'thumb', expires, signature)).toBe('expired');
    expect(new MediaUrlSigner(Buffer.alloc(32, 4).toString('base64'), 'https://photos.example', at('2026-09-04T10:20:00Z')).check(7, 'thumb', expires, signature)).toBe('invalid');
  });
});

describe('renditionSource', () => {
  const photo = { mediaType: 'photo' as const, originalKey: 'o' };
  const video = { mediaType: 'video' as const, originalKey: 'v' };
  it('serves the thumbnail once made, the original photo (a video: its poster, else a placeholder) meanwhile', () => {
    expect(renditionSource(photo, 'full')).toEqual({ kind: 'stored', key: 'o', exact: true });
    expect(renditionSource(photo, 'thumb')).toEqual({ kind: 'stored', key: 'o', exact: false });
    expect(renditionSource({ ...photo, thumbKey: 't' }, 'thumb')).toEqual({ kind: 'stored', key: 't', exact: true });
    expect(renditionSource(photo, 'poster')).toBeNull();
    expect(renditionSource(video, 'thumb')).toEqual({ kind: 'placeholder' });
    expect(renditionSource(video, 'poster')).toBeNull();
    expect(renditionSource({ ...video, posterKey: 'p' }, 'thumb')).toEqual({ kind: 'stored', key: 'p', exact: false });
    expect(renditionSource({ ...video, posterKey: 'p' }, 'poster')).toEqual({ kind: 'stored', key: 'p', exact: true });
  });
});

describe('byte ranges', () => {
  it('serves one satisfiable range (suffixes and open ends too) and ignores the rest', async () => {
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    for (const header of [undefined, '', 'bytes=-', 'bytes=5-1', 'bytes=1000-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-0']) expect(byteRange(header, 1000)).toBeNull();
    const slice = Readable.from([Buffer.from('abcdef'), Buffer.from('ghij')]).pipe(new ByteRangeSlice({ start: 4, end: 7 }));
    const chunks: Buffer[] = [];
    for await (const chunk of slice) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('efgh');
  });
});

describe('assignment', () => {
  const project = (coordinates: { lat: number; lng: number } | null) => ({ coordinates: () => coordinates });
  it('gps from a match, unassigned with the reason and no distance, manual/corrected with the distance when both positions are known', () => {
    const site = project({ lat: 0, lng: 0 });
    expect(assignmentFromMatch({ decision: 'matched', project: site, distanceM: 12.5, candidates: [] })).toEqual({ project: site, source: 'gps', distanceM: 12.5, reason: null });
    expect(assignmentFromMatch({ decision: 'unassigned', reason: 'ambiguous', candidates: [] })).toEqual({ project: null, source: 'unassigned', distanceM: null, reason: 'ambiguous' });
    expect(chosenAssignment(site, { lat: 0, lng: 0.001 }, 'manual').distanceM).toBeCloseTo(111.2, 0);
    expect(chosenAssignment(site, { lat: null, lng: null }, 'corrected')).toEqual({ project: site, source: 'corrected', distanceM: null, reason: null });
    expect(chosenAssignment(project(null), { lat: 1, lng: 1 }, 'manual').distanceM).toBeNull();
  });
});

describe('pairProblems', () => {
  const photo = (id: number, projectId: number | null, capturedAt: string | null) => ({ id, projectId, capturedAt: capturedAt ? new Date(capturedAt) : null });
  it('names the field at fault, and lets same-project photos in capture order (or without capture times) pair', () => {
    const a = photo(1, 10, '2026-09-01T00:00:00Z');
    const b = photo(2, 10, '2026-09-02T00:00:00Z');
    expect(pairProblems(a, b)).toBeNull();
    expect(pairProblems(a, photo(3, 10, null))).toBeNull();
    expect(pairProblems(photo(4, 10, '2026-09-02T00:00:00Z'), b)).toBeNull();
    expect(pairProblems(null, null)).toEqual({ before_photo_id: [PHOTO_NOT_FOUND], after_photo_id: [PHOTO_NOT_FOUND] });
    expect(pairProblems(a, a)).toEqual({ after_photo_id: [SAME_PHOTO] });
    expect(pairProblems(a, photo(5, 11, null))).toEqual({ after_photo_id: [OTHER_PROJECT] });
    expect(pairProblems(photo(6, null, null), photo(7, null, null))).toEqual({ before_photo_id: [UNASSIGNED_PHOTO], after_photo_id: [UNASSIGNED_PHOTO] });
    expect(pairProblems(b, a)).toEqual({ before_photo_id: [WRONG_ORDER] });
  });
});

describe('LocalMediaStorage', () => {
  it('writes atomically (no temporary file left, a failed write leaves nothing), reads back type and size, refuses keys that are not its own', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'photos-storage-'));
    try {
      const storage = new LocalMediaStorage(root);
      expect(await storage.put('teams/1/photos/abc/original', Readable.from([Buffer.from('hello')]), 'image/jpeg')).toEqual({ sizeBytes: 5 });
      const read = await storage.get('teams/1/photos/abc/original');
      expect(read && { size: read.sizeBytes, type: read.contentType }).toEqual({ size: 5, type: 'image/jpeg' });
      read?.body.destroy();
      const failing = new Readable({ read() { this.destroy(new Error('client went away')); } });
      await expect(storage.put('teams/1/photos/def/original', failing, 'image/png')).rejects.toThrow('client went away');
      expect(await storage.get('teams/1/photos/def/original')).toBeNull();
      const files = await readdir(root, { recursive: true, withFileTypes: true });
      expect(files.filter((entry) => entry.isFile()).map((entry) => entry.name).sort()).toEqual(['original', 'original.content-type']);
      await storage.delete('teams/1/photos/abc/original');
      await storage.delete('teams/1/photos/abc/original');
      expect(await storage.get('teams/1/photos/abc/original')).toBeNull();
      // A rendition next to its original (the media worker's keys) is a key like any other.
      await storage.put('teams/1/photos/abc/thumb.jpg', Readable.from([Buffer.from('jpeg')]), 'image/jpeg');
      expect((await storage.get('teams/1/photos/abc/thumb.jpg'))?.contentType).toBe('image/jpeg');
      await storage.delete('teams/1/photos/abc/thumb.jpg');
      for (const key of ['../escape', 'teams/../../x', '/abs', 'Teams/A', 'teams/1/.tmp-x', 'teams/1/photos/abc/original.content-type']) await expect(storage.put(key, Readable.from([]), 'x')).rejects.toThrow('not a storage key');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
