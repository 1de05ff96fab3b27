// The project as the Decisions table fixes it, and its paginated list (`{data, meta}`).
import type { z } from 'zod';
import type { Project } from './project.entity.js';
import type { projectListResponse, projectResource } from './project.openapi.js';
import type { ProjectPage } from './project.service.js';

export function presentProject(project: Project): z.input<typeof projectResource> {
  const coordinates = project.coordinates();
  return {
    id: project.id,
    name: project.name,
    status: project.status,
    address: project.address ?? null,
    coordinates: coordinates ? { lat: coordinates.lat, lng: coordinates.lng, radius_m: coordinates.radiusM } : null,
    created_at: project.createdAt.toISOString(),
    last_activity_at: project.lastActivityAt.toISOString(),
  };
}

export function presentProjectPage(page: ProjectPage): z.input<typeof projectListResponse> {
  return {
    data: page.items.map(presentProject),
    meta: {
      current_page: page.page,
      per_page: page.perPage,
      total: page.total,
      last_page: Math.max(1, Math.ceil(page.total / page.perPage)),
    },
  };
}
