// The photo record side of the media activities (the media tooling's PhotoRenditionStore port): what rendering reads of
// a photo and where it writes the thumbnail, poster, duration and size back. Each call on its own EntityManager: the
// activities run outside any request.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PhotoRenditionStore, PhotoRenditions, PhotoToRender } from '../../media/index.js';
import { Photo } from './photo.entity.js';

export class PhotoRenditionRecords implements PhotoRenditionStore {
  constructor(private readonly em: EntityManager) {}

  async load(photoId: number): Promise<PhotoToRender | null> {
    const photo = await this.em.fork().findOne(Photo, { id: photoId });
    if (!photo) return null;
    return { teamId: photo.team.id, mediaType: photo.mediaType, mimeType: photo.mimeType, originalKey: photo.originalKey };
  }

  async saveRenditions(photoId: number, renditions: PhotoRenditions): Promise<void> {
    await this.em.fork().nativeUpdate(Photo, { id: photoId }, { ...renditions, mediaProcessedAt: new Date() });
  }
}
