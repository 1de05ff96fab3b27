// Which stored object answers a rendition of a photo (decided in the README): `full` is the original; `thumb` is the
// thumbnail once the media workflow made it, and meanwhile the original photo (a video's poster, else a placeholder
// image, for a video); `poster` exists for videos once made. Pure.
import { Readable } from 'node:stream';
import type { Rendition } from './media-urls.js';

export interface RenditionKeys {
  mediaType: 'photo' | 'video';
  originalKey: string;
  thumbKey?: string | null | undefined;
  posterKey?: string | null | undefined;
}

/** `exact`: the rendition itself (cacheable); a stand-in until it exists is not. */
export type RenditionSource = { kind: 'stored'; key: string; exact: boolean } | { kind: 'placeholder' } | null;

export function renditionSource(photo: RenditionKeys, rendition: Rendition): RenditionSource {
  switch (rendition) {
    case 'full':
      return { kind: 'stored', key: photo.originalKey, exact: true };
    case 'thumb':
      if (photo.thumbKey) return { kind: 'stored', key: photo.thumbKey, exact: true };
      if (photo.mediaType === 'photo') return { kind: 'stored', key: photo.originalKey, exact: false };
      return photo.posterKey ? { kind: 'stored', key: photo.posterKey, exact: false } : { kind: 'placeholder' };
    case 'poster':
      return photo.mediaType === 'video' && photo.posterKey ? { kind: 'stored', key: photo.posterKey, exact: true } : null;
  }
}

/** A neutral 16:9 frame with a play symbol: what a video's thumb shows before its poster exists. */
const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180"><rect width="320" height="180" fill="#d9dde3"/><path d="M140 60v60l50-30z" fill="#7a8494"/></svg>';

export const PLACEHOLDER_CONTENT_TYPE = 'image/svg+xml';

export function placeholderImage(): { body: Readable; sizeBytes: number; contentType: string } {
  const bytes = Buffer.from(PLACEHOLDER_SVG);
  return { body: Readable.from([bytes]), sizeBytes: bytes.length, contentType: PLACEHOLDER_CONTENT_TYPE };
}
