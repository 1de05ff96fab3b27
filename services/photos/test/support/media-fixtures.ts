// Real media made in the test: images drawn by sharp, short videos encoded by the ffmpeg binary the service uses.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function ffmpeg(args: string[]): void {
  execFileSync(mediaBinaryPath('ffmpeg'), ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}
