// The narrow port between the media activities and the photo record (owned by the photos module): what rendering needs
// to read of a photo and what it writes back. The photos module implements it; tests implement it in memory.

/** What rendering needs to know of a photo. */
export interface PhotoToRender {
  teamId: number;
  mediaType: 'photo' | 'video';
  /** Sniffed content type of the original (e.g. image/heic, video/quicktime). */
  mimeType: string;
  /** Storage key of the original; renditions are stored next to it. */
  originalKey: string;
}

/** What rendering found: stored rendition keys and the media's displayed size and duration (null when unknown). */
export interface PhotoRenditions {
  thumbKey: string | null;
  posterKey: string | null;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
}

export interface PhotoRenditionStore {
  /** What rendering needs to know of a photo, or null when it no longer exists. */
  load(photoId: number): Promise<PhotoToRender | null>;
  /** Records the renditions (keys of stored thumb/poster, duration, dimensions) and media_processed_at. */
  saveRenditions(photoId: number, renditions: PhotoRenditions): Promise<void>;
}

/** All null: what is recorded for media that could not be rendered, so the photo reads as processed without renditions. */
export const NO_RENDITIONS: PhotoRenditions = Object.freeze({ thumbKey: null, posterKey: null, durationSeconds: null, width: null, height: null });
