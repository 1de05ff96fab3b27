// The before/after pair as REST answers it: both halves are the full photo resource (one presenter, presentPhoto).
import type { z } from 'zod';
import { presentPhoto, type MediaUrlSigner } from '../photos/index.js';
import type { PhotoGroup } from './photo-group.entity.js';
import type { photoGroupListResponse, photoGroupResource } from './photo-group.openapi.js';
import type { PhotoGroupPage } from './photo-group.service.js';

export function presentPhotoGroup(group: PhotoGroup, urls: MediaUrlSigner): z.input<typeof photoGroupResource> {
  const project = group.before.project;
  return {
    id: group.id,
    project: project ? { id: project.id, name: project.name } : null,
    before: presentPhoto(group.before, urls),
    after: presentPhoto(group.after, urls),
    created_at: group.createdAt.toISOString(),
  };
}

export function presentPhotoGroupPage(page: PhotoGroupPage, urls: MediaUrlSigner): z.input<typeof photoGroupListResponse> {
  return {
    data: page.items.map((group) => presentPhotoGroup(group, urls)),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
