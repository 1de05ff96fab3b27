// The photo resource (spec "Photo") as REST answers it and webhooks will carry it: one presenter for both.
import type { z } from 'zod';
import type { MediaUrlSigner } from './media-urls.js';
import type { Photo } from './photo.entity.js';
import type { photoListResponse, photoResource } from './photo.openapi.js';
import type { PhotoPage } from './photo.service.js';

export function presentPhoto(photo: Photo, urls: MediaUrlSigner): z.input<typeof photoResource> {
  const location = photo.location();
  const project = photo.project;
  return {
    id: photo.id,
    local_capture_id: photo.localCaptureId,
    project: project ? { id: project.id, name: project.name } : null,
    captured_at: photo.capturedAt?.toISOString() ?? null,
    uploaded_at: photo.uploadedAt.toISOString(),
    media_type: photo.mediaType,
    mime_type: photo.mimeType,
    description: photo.description,
    tags: photo.tags,
    location: location ? { lat: location.lat, lng: location.lng, accuracy_m: location.accuracyM } : null,
    assignment: { source: photo.assignmentSource, distance_m: photo.distanceM ?? null, reason: photo.unassignedReason ?? null },
    urls: {
      full: urls.url(photo.id, 'full'),
      thumb: urls.url(photo.id, 'thumb'),
      annotated: null,
      poster: photo.mediaType === 'video' && photo.posterKey ? urls.url(photo.id, 'poster') : null,
    },
    size_bytes: photo.sizeBytes,
    duration_seconds: photo.durationSeconds ?? null,
  };
}

export function presentPhotoPage(page: PhotoPage, urls: MediaUrlSigner): z.input<typeof photoListResponse> {
  return {
    data: page.items.map((photo) => presentPhoto(photo, urls)),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
