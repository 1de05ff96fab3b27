import { mountApiRoute, parseInput } from '@tributary/kit';
import { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { projectApi } from './project.openapi.js';
import { presentProjectPage } from './project.presenter.js';
import type { ProjectService } from './project.service.js';
import { listProjectsQuery } from './project.validation.js';

/** /api/v1/projects (projects:read); paths come from project.openapi.ts. */
export function projectRoutes(auth: AuthService, projects: ProjectService): Router {
  const router = Router();
  mountApiRoute(router, projectApi.list, requireToken(auth), requireScope('projects:read', { capture: true }), async (req, res) => {
    const page = await projects.list(principalOf(res), parseInput(listProjectsQuery, req.query));
    res.json(presentProjectPage(page));
  });
  return router;
}
