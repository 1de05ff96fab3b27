import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import type { z } from 'zod';
import type { AuthService } from '../auth/auth.service.js';
import type { Project } from './project.entity.js';
import { projectApi, type projectListResponse, type projectResource } from './project.openapi.js';
import type { ProjectService } from './project.service.js';

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

/** /api/v1/projects (projects:read); paths come from project.openapi.ts. */
export function projectRoutes(auth: AuthService, projects: ProjectService): Router {
  const router = Router();
  mountApiRoute(router, projectApi.list, async (req, res) => {
    const principal = await auth.authenticate(req.headers.authorization);
    const page = await projects.list(principal, req.query);
    const body: z.input<typeof projectListResponse> = {
      data: page.items.map(presentProject),
      meta: {
        current_page: page.page,
        per_page: page.perPage,
        total: page.total,
        last_page: Math.max(1, Math.ceil(page.total / page.perPage)),
      },
    };
    res.json(body);
  });
  return router;
}
