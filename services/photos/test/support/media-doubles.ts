// A test-only implementation of the media activities' port to the photo record (the real one is the photos
// module's): photos in memory, every write kept.
import type { PhotoRenditions, PhotoRenditionStore, PhotoToRender } from '../../src/media/index.js';

/** Photos in a map; every saveRenditions call is kept in order. */
export class InMemoryRenditionStore implements PhotoRenditionStore {
  readonly photos = new Map<number, PhotoToRender>();
  readonly saved: Array<{ photoId: number; renditions: PhotoRenditions }> = [];

  async load(photoId: number): Promise<PhotoToRender | null> {
    return this.photos.get(photoId) ?? null;
  }

  async saveRenditions(photoId: number, renditions: PhotoRenditions): Promise<void> {
    this.saved.push({ photoId, renditions });
  }
}
