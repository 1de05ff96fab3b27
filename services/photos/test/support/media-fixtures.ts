// Real media made in the test: images drawn by sharp, short videos encoded by the ffmpeg binary the service uses, and a
// HEIC-shaped file (sharp's libvips cannot encode HEVC): a real ISO base media file with the `heic` brand.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { mediaBinaryPath } from '../../src/media/index.js';

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A landscape image (a red left half, a blue right half) of the given size in the given format. */
export function landscapeImage(format: 'jpeg' | 'png' | 'webp', width = 640, height = 320): Promise<Buffer> {
  const left = { input: { create: { width: Math.floor(width / 2), height, channels: 3 as const, background: '#d22' } }, left: 0, top: 0 };
  return sharp({ create: { width, height, channels: 3, background: '#22d' } }).composite([left]).toFormat(format).toBuffer();
}

/** A JPEG stored `width`×`height` whose EXIF orientation 6 says "rotate 90° clockwise to display" (a phone held upright). */
export function jpegWithOrientation6(width = 640, height = 320): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2a2' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
}

export interface VideoOptions {
  seconds: number;
  width?: number;
  height?: number;
  /** Rotation tag of the video stream (what a phone writes for a portrait recording). */
  rotate?: 90 | 180 | 270;
}

/** An H.264 MP4 of a moving test pattern, encoded by the bundled ffmpeg, at `path`. */
export function writeTestVideo(path: string, { seconds, width = 320, height = 240, rotate }: VideoOptions): string {
  const encoded = rotate ? `${path}.unrotated.mp4` : path;
  ffmpeg(['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=10`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', encoded]);
  // The bundled ffmpeg writes the rotation tag only when copying a stream, not while encoding it.
  if (rotate) ffmpeg(['-i', encoded, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, path]);
  return path;
}

/** An MP4 with a sine tone and no video stream (an "audio-only recording" the capture app could send as video/mp4). */
export function writeAudioOnlyMp4(path: string, seconds: number): string {
  ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'aac', path]);
  return path;
}

/** A one-second H.264 MP4 of a plain grey `width`×`height` frame (quick to encode however large the frame). */
export function writeLargeFrameVideo(path: string, width: number, height: number): string {
  ffmpeg(['-f', 'lavfi', '-i', `color=c=gray:size=${width}x${height}:duration=1:rate=1`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path]);
  return path;
}

function ffmpeg(args: string[]): void {
  execFileSync(mediaBinaryPath('ffmpeg'), ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

export const jpeg = (width = 64, height = 48): Promise<Buffer> => solid(width, height).jpeg().toBuffer();
export const png = (): Promise<Buffer> => solid(40, 30).png().toBuffer();
export const webp = (): Promise<Buffer> => solid(40, 30).webp().toBuffer();
export const gif = (): Promise<Buffer> => solid(20, 20).gif().toBuffer();
export const avif = (): Promise<Buffer> => solid(20, 20).avif().toBuffer();

/** A JPEG of random pixels: barely compressible, so about `side * side * 3` bytes or more at quality 100. */
export async function noisyJpeg(side: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = Math.floor(Math.random() * 256);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framing = Buffer.alloc(8);
  framing.writeUInt32BE(data.length, 0);
  framing.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
}

/**
 * A valid PNG declaring `width`×`height` pixels (1-bit grey, all black) in a few tens of kilobytes: a decompression
 * bomb, since a decoder expands it to at least `width × height` bytes.
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; colour type 0 (grey), standard compression, filter and no interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // each row: filter byte 0, then black pixels
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

/** ftyp (major brand heic, compatible mif1 heic) + meta + mdat: what a HEIC's container looks like to a sniffer. */
export function heicish(): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('heic', 'latin1'), Buffer.alloc(4), Buffer.from('mif1heic', 'latin1')]));
  return Buffer.concat([ftyp, box('meta', Buffer.alloc(64)), box('mdat', Buffer.alloc(5000, 7))]);
}

const TEST_PATTERN = 'testsrc=duration=1:size=160x120:rate=10';
/** Random pixels: barely compressible, a few hundred KB for a second. */
export const NOISE = 'nullsrc=s=320x240:d=1:r=10,geq=random(1)*255:128:128';

/** A 1-second MP4 made by ffmpeg: a 160×120 test pattern (about 5 KB), or `source` (an ffmpeg lavfi graph). */
export async function mp4(source = TEST_PATTERN): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'photos-video-'));
  const file = path.join(dir, 'clip.mp4');
  try {
    await promisify(execFile)(mediaBinaryPath('ffmpeg'), ['-v', 'error', '-f', 'lavfi', '-i', source, '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
