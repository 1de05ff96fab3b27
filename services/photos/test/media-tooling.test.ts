// The media tooling on real bytes: images drawn by sharp, videos encoded by the bundled ffmpeg, read back by the
// functions the worker's activity uses. Checks sizes, EXIF orientation, video rotation and refusals of bad bytes.
import { afterAll, describe, expect, it } from '@jest/globals';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import {
  assertMediaBinaries,
  MAX_IMAGE_PIXELS,
  MAX_VIDEO_FRAME_PIXELS,
  probeVideo,
  renderPhotoThumbnail,
  renderVideoPoster,
  THUMBNAIL_MAX_EDGE,
  UnrenderableMediaError,
} from '../src/media/index.js';
import { writeHevcHeic } from './support/heic.js';
import { printImage } from '../src/modules/reports/report-images.js';
import { jpegWithOrientation6, landscapeImage, pngBomb, tempDir, writeLargeFrameVideo, writeTestVideo } from './support/media-fixtures.js';

const tmp = tempDir('photos-media');
afterAll(() => tmp.cleanup());

async function jpegSize(jpeg: Buffer) {
  const meta = await sharp(jpeg).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

describe('media binaries', () => {
  it('ffmpeg and ffprobe resolve from node_modules and are executable', () => {
    const paths = assertMediaBinaries();
    expect(paths.ffmpeg).toMatch(/node_modules\/@ffmpeg-installer\//);
    expect(paths.ffprobe).toMatch(/node_modules\/@ffprobe-installer\//);
    for (const path of Object.values(paths)) expect(() => accessSync(path, constants.X_OK)).not.toThrow();
  });
});

describe('renderPhotoThumbnail', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const) {
    it(`fits a ${format} inside ${THUMBNAIL_MAX_EDGE} px as a JPEG`, async () => {
      const thumb = await renderPhotoThumbnail(await landscapeImage(format, 1000, 500));
      expect(thumb).toMatchObject({ width: THUMBNAIL_MAX_EDGE, height: THUMBNAIL_MAX_EDGE / 2, sourceWidth: 1000, sourceHeight: 500 });
      expect(await jpegSize(thumb.jpeg)).toEqual({ format: 'jpeg', width: 320, height: 160 });
    });
  }

  it('applies EXIF orientation 6: a sideways-stored 640×320 JPEG reads as a 160×320 portrait', async () => {
    const input = await jpegWithOrientation6(640, 320);
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const thumb = await renderPhotoThumbnail(input);
    expect(thumb).toMatchObject({ width: 160, height: 320, sourceWidth: 320, sourceHeight: 640 });
    const out = await sharp(thumb.jpeg).metadata();
    expect({ width: out.width, height: out.height, orientation: out.orientation }).toEqual({ width: 160, height: 320, orientation: undefined });
  });

  it('keeps the pixels where the orientation puts them (the stored left half ends up on top)', async () => {
    // Stored: red left half, blue right half. Turned 90° clockwise the left half becomes the top half, so the
    // top-right corner is red and the bottom-left corner blue (unturned, it would be the other way round).
    const stored = await sharp(await landscapeImage('jpeg', 640, 320)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const { jpeg } = await renderPhotoThumbnail(stored);
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3);
    const [topRightRed, , topRightBlue] = pixel(info.width - 2, 2);
    const [bottomLeftRed, , bottomLeftBlue] = pixel(2, info.height - 2);
    expect(topRightRed).toBeGreaterThan(150);
    expect(topRightBlue).toBeLessThan(100);
    expect(bottomLeftRed).toBeLessThan(100);
    expect(bottomLeftBlue).toBeGreaterThan(150);
  });

  it('HEVC-coded HEIC (what iPhones write) is unrenderable: the bundled libvips has no HEVC decoder', async () => {
    const heic = writeHevcHeic(tmp.dir);
    // A well-formed HEIC: sniffed as such, and its header reads.
    expect(await fileTypeFromBuffer(heic)).toEqual({ ext: 'heic', mime: 'image/heic' });
    expect(await sharp(heic).metadata()).toMatchObject({ format: 'heif', compression: 'hevc', width: 64, height: 64 });
    const error = await renderPhotoThumbnail(heic).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrenderableMediaError);
    expect((error as Error).message).toMatch(/HEVC/);
  });

  it('HEIF coded with AV1 renders', async () => {
    const heif = await sharp(await landscapeImage('png', 400, 200)).heif({ compression: 'av1' }).toBuffer();
    expect(await renderPhotoThumbnail(heif)).toMatchObject({ width: 320, height: 160 });
  });

  it('does not enlarge a small image', async () => {
    const thumb = await renderPhotoThumbnail(await landscapeImage('png', 100, 60));
    expect(thumb).toMatchObject({ width: 100, height: 60 });
  });

  it('reads from a file path as well as a buffer', async () => {
    const path = join(tmp.dir, 'photo.webp');
    writeFileSync(path, await landscapeImage('webp', 400, 800));
    expect(await renderPhotoThumbnail(path)).toMatchObject({ width: 160, height: 320 });
  });

  it('refuses a truncated JPEG and bytes that are no image as unrenderable', async () => {
    const jpeg = await landscapeImage('jpeg', 640, 320);
    await expect(renderPhotoThumbnail(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).rejects.toBeInstanceOf(UnrenderableMediaError);
    await expect(renderPhotoThumbnail(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(UnrenderableMediaError);
  });

  it('a missing input file is an ordinary error, not unrenderable media (a retry may find it)', async () => {
    const error = await renderPhotoThumbnail(join(tmp.dir, 'missing.jpg')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnrenderableMediaError);
  });
});

describe('probeVideo and renderVideoPoster', () => {
  it('probe: duration and size of a 3-second 320×240 H.264 MP4', async () => {
    const path = writeTestVideo(join(tmp.dir, 'three.mp4'), { seconds: 3 });
    const probe = await probeVideo(path);
    expect(probe.durationSeconds).toBeCloseTo(3, 0);
    expect(probe).toMatchObject({ width: 320, height: 240 });
  });

  it('QuickTime (.mov, what iPhones record) probes and gets a poster too', async () => {
    const path = writeTestVideo(join(tmp.dir, 'clip.mov'), { seconds: 2, width: 480, height: 270 });
    expect(readFileSync(path).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(readFileSync(path).subarray(8, 10).toString('latin1')).toBe('qt');
    const probe = await probeVideo(path);
    expect(probe).toMatchObject({ width: 480, height: 270 });
    expect(await renderVideoPoster(path, probe.durationSeconds)).toMatchObject({ width: 320, height: 180 });
  });

  it('probe: a portrait recording (rotation tag 90) reads as portrait, and so does its poster', async () => {
    const path = writeTestVideo(join(tmp.dir, 'portrait.mp4'), { seconds: 2, width: 320, height: 240, rotate: 90 });
    expect(await probeVideo(path)).toMatchObject({ width: 240, height: 320 });
    const poster = await renderVideoPoster(path, 2);
    expect(poster).toMatchObject({ width: 240, height: 320 });
  });

  it('poster: the frame at one second, fitted like a thumbnail, as JPEG', async () => {
    const path = writeTestVideo(join(tmp.dir, 'wide.mp4'), { seconds: 3, width: 640, height: 360 });
    const poster = await renderVideoPoster(path, 3);
    expect(poster).toMatchObject({ width: 320, height: 180, sourceWidth: 640, sourceHeight: 360 });
    expect(await jpegSize(poster.jpeg)).toEqual({ format: 'jpeg', width: 320, height: 180 });
    // testsrc draws a running counter: the frame at 1 s differs from the first frame.
    const first = await renderVideoPoster(path, 1);
    expect(first.jpeg.equals(poster.jpeg)).toBe(false);
  });

  it('poster: the first frame of a video shorter than two seconds, and of one whose duration is unknown', async () => {
    const path = writeTestVideo(join(tmp.dir, 'short.mp4'), { seconds: 0.5 });
    const probe = await probeVideo(path);
    expect(probe.durationSeconds).toBeLessThan(1);
    expect(await renderVideoPoster(path, probe.durationSeconds)).toMatchObject({ width: 320, height: 240 });
    expect(await renderVideoPoster(path, null)).toMatchObject({ width: 320, height: 240 });
  });

  it('a stated duration longer than the frames falls back to the first frame', async () => {
    const path = writeTestVideo(join(tmp.dir, 'short2.mp4'), { seconds: 0.5 });
    expect(await renderVideoPoster(path, 30)).toMatchObject({ width: 320, height: 240 });
  });

  it('refuses bytes that are no video, and a truncated video, as unrenderable', async () => {
    const junk = join(tmp.dir, 'junk.mp4');
    writeFileSync(junk, Buffer.alloc(4096, 7));
    await expect(probeVideo(junk)).rejects.toBeInstanceOf(UnrenderableMediaError);
    await expect(renderVideoPoster(junk, null)).rejects.toBeInstanceOf(UnrenderableMediaError);
    const whole = readFileSync(writeTestVideo(join(tmp.dir, 'whole.mp4'), { seconds: 2 }));
    const truncated = join(tmp.dir, 'truncated.mp4');
    writeFileSync(truncated, whole.subarray(0, 200));
    await expect(probeVideo(truncated)).rejects.toBeInstanceOf(UnrenderableMediaError);
  });
});

describe('pixel limits (decompression bombs)', () => {
  it('an image declaring 16 000 × 16 000 pixels (256 MP, under sharp\'s default limit) is unrenderable, as thumbnail and as print', async () => {
    const bomb = pngBomb(16_000, 16_000);
    expect(16_000 * 16_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 16_000, height: 16_000 });
    await expect(renderPhotoThumbnail(bomb)).rejects.toThrow(/pixel limit/);
    await expect(renderPhotoThumbnail(bomb)).rejects.toBeInstanceOf(UnrenderableMediaError);
    await expect(printImage(bomb)).rejects.toBeInstanceOf(UnrenderableMediaError);
  });

  it('a video of 8 192 × 8 192 frames is unrenderable: ffprobe and ffmpeg refuse to decode such a frame', async () => {
    const path = writeLargeFrameVideo(join(tmp.dir, 'huge-frame.mp4'), 8192, 8192);
    expect(8192 * 8192).toBeGreaterThan(MAX_VIDEO_FRAME_PIXELS);
    await expect(probeVideo(path)).rejects.toBeInstanceOf(UnrenderableMediaError);
    await expect(renderVideoPoster(path, 1)).rejects.toBeInstanceOf(UnrenderableMediaError);
  });

  it('media at the limits still renders: a 8 192 × 4 320 frame gets its poster', async () => {
    const path = writeLargeFrameVideo(join(tmp.dir, 'dci-8k.mp4'), 8192, 4320);
    expect(8192 * 4320).toBe(MAX_VIDEO_FRAME_PIXELS);
    expect(await probeVideo(path)).toMatchObject({ width: 8192, height: 4320 });
    expect(await renderVideoPoster(path, 1)).toMatchObject({ width: 320, height: 169 });
  });
});
