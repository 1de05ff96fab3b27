// Renders one photo's or video's renditions from its original in storage: the original is copied to a temp file
// (ffprobe/ffmpeg need a seekable file; sharp reads it without holding a 25 MB upload in memory), rendered, and the
// JPEG stored next to the original. Throws UnrenderableMediaError when the bytes can never be rendered.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@tributary/kit';
import type { MediaStorage } from '../storage/index.js';
import { UnrenderableMediaError } from './media-errors.js';
import type { PhotoRenditions, PhotoToRender } from './photo-rendition-store.js';
import { renditionKey } from './rendition-keys.js';
import { RENDITION_CONTENT_TYPE, renderPhotoThumbnail } from './thumbnail.js';
import { probeVideo, renderVideoPoster } from './video.js';

export interface RenderMediaOptions {
  storage: MediaStorage;
  /** Directory for the temp copy of the original. */
  workDir: string;
  logger: Logger;
}

export async function renderMedia(photoId: number, photo: PhotoToRender, options: RenderMediaOptions): Promise<PhotoRenditions> {
  const dir = await mkdtemp(join(options.workDir, 'photos-media-'));
  try {
    const original = join(dir, 'original');
    await copyOriginal(options.storage, photo.originalKey, original);
    return photo.mediaType === 'video' ? await renderVideo(photoId, photo, original, options) : await renderPhoto(photo, original, options.storage);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function copyOriginal(storage: MediaStorage, key: string, path: string): Promise<void> {
  const object = await storage.get(key);
  // The upload stores the original before it commits the photo: a photo without one will never get it.
  if (!object) throw new UnrenderableMediaError(`original ${key} is missing from storage`);
  await pipeline(object.body, createWriteStream(path));
}

async function renderPhoto(photo: PhotoToRender, path: string, storage: MediaStorage): Promise<PhotoRenditions> {
  const thumb = await renderPhotoThumbnail(path);
  const thumbKey = renditionKey(photo.originalKey, 'thumb');
  await storage.put(thumbKey, Readable.from([thumb.jpeg]), RENDITION_CONTENT_TYPE);
  return { thumbKey, posterKey: null, durationSeconds: null, width: thumb.sourceWidth, height: thumb.sourceHeight };
}

/** A video whose stream can be probed but yields no frame keeps its duration and size, without a poster. */
async function renderVideo(photoId: number, photo: PhotoToRender, path: string, { storage, logger }: RenderMediaOptions): Promise<PhotoRenditions> {
  const probe = await probeVideo(path);
  let posterKey: string | null = null;
  try {
    const poster = await renderVideoPoster(path, probe.durationSeconds);
    posterKey = renditionKey(photo.originalKey, 'poster');
    await storage.put(posterKey, Readable.from([poster.jpeg]), RENDITION_CONTENT_TYPE);
  } catch (error) {
    if (!(error instanceof UnrenderableMediaError)) throw error;
    logger.warn({ photoId, mimeType: photo.mimeType, err: error.message }, 'video has no poster frame');
  }
  return { thumbKey: null, posterKey, durationSeconds: probe.durationSeconds, width: probe.width, height: probe.height };
}
