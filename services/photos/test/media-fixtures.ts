// Real media made in the test: images with sharp, a short MP4 with the ffmpeg binary of @ffmpeg-installer/ffmpeg, and
// a HEIC-shaped file (sharp's libvips cannot encode HEVC): a real ISO base media file with the `heic` brand.
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

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
    await promisify(execFile)(ffmpeg.path, ['-v', 'error', '-f', 'lavfi', '-i', source, '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
