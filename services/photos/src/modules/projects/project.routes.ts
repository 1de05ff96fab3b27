import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './project.idempotency.js';
import { projectApi } from './project.openapi.js';
import { presentNearby, presentProject, presentProjectPage, presentProjectWithCounts, projectPath } from './project.presenter.js';
import type { ProjectService } from './project.service.js';
import { listProjectsQuery, nearbyProjectsQuery } from './project.validation.js';

/** /api/v1/projects…; paths come from project.openapi.ts. The reads are capture-app endpoints, the create is not. */
export function projectRoutes(auth: AuthService, projects: ProjectService): Router {
  const router = serviceRouter();
  const read = [requireToken(auth), requireScope('projects:read', { capture: true })];

  mountApiRoute(router, projectApi.list, ...read, async (req, res) => {
    const page = await projects.list(principalOf(res), parseInput(listProjectsQuery, req.query));
    res.json(presentProjectPage(page));
  });

  mountApiRoute(router, projectApi.create, requireToken(auth), requireScope('projects:write'), async (req, res) => {
    const { project, replayed } = await projects.create(principalOf(res), req.body, { idempotencyKey: req.get(IDEMPOTENCY_KEY_HEADER) });
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.status(201).location(projectPath(project)).json({ data: presentProject(project) });
  });

  // Before /projects/:project, which would otherwise take "nearby" for an id.
  mountApiRoute(router, projectApi.nearby, ...read, async (req, res) => {
    const query = parseInput(nearbyProjectsQuery, req.query);
    res.json(presentNearby(await projects.nearby(principalOf(res), { lat: query.lat, lng: query.lng, accuracyM: query.accuracy_m })));
  });

  mountApiRoute(router, projectApi.get, ...read, async (req, res) => {
    res.json(presentProjectWithCounts(await projects.get(principalOf(res), String(req.params.project))));
  });

  return router;
}
