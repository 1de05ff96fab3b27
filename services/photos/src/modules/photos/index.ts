// Photos and videos of a team (spec "Photo"): the streamed, idempotent upload with GPS assignment, the edit that keeps
// capture evidence read-only, the list, signed media URLs, and the counts other modules show.
import { PhotoSchema } from './photo.entity.js';

export { ASSIGNMENT_SOURCES, MEDIA_TYPES, Photo, PhotoSchema, type AssignmentSource, type MediaType } from './photo.entity.js';
export { photoCountSource } from './photo-project-counts.js';
export { PhotoRenditionRecords } from './photo-rendition-records.js';
export type { PhotoAnnouncements, PhotoEvent, PhotoEventSink } from './photo-events.js';
export { PhotoService, type MediaObject, type PhotoPage, type PhotoServiceOptions, type PhotoUpload } from './photo.service.js';
export { MediaUrlSigner, RENDITIONS, type Rendition } from './media-urls.js';
export { MAX_ID, PHOTOS_PER_PAGE, type PhotoListQuery } from './photo.validation.js';
export { presentPhoto, presentPhotoPage } from './photo.presenter.js';
export { photoResource } from './photo.openapi.js';
export { photoRoutes } from './photo.routes.js';
export { photoApi } from './photo.openapi.js';

export const photoEntities = [PhotoSchema];
export { photoResolvers } from './photo.resolvers.js';
