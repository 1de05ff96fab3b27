import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { pageApi } from './page.openapi.js';
import { pagePath, presentPage, presentPageList } from './page.presenter.js';
import type { PageService } from './page.service.js';
import { createPageBody, editPageBody, listPagesQuery } from './page.validation.js';

/** /api/v1/pages… (pages:read / pages:write; office endpoints, not the capture app's). */
export function pageRoutes(auth: AuthService, pages: PageService): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, pageApi.list, token, requireScope('pages:read'), async (req, res) => {
    const query = parseInput(listPagesQuery, req.query);
    res.json(presentPageList(await pages.list(principalOf(res), { projectId: query.project, q: query.q, page: query.page })));
  });
  mountApiRoute(router, pageApi.create, token, requireScope('pages:write'), async (req, res) => {
    const body = parseInput(createPageBody, req.body, { rootField: 'body' });
    const page = await pages.create(principalOf(res), { projectId: body.project_id, title: body.title, body: body.body });
    res.status(201).location(pagePath(page)).json({ data: presentPage(page) });
  });
  mountApiRoute(router, pageApi.get, token, requireScope('pages:read'), async (req, res) => {
    res.json({ data: presentPage(await pages.get(principalOf(res), String(req.params.page))) });
  });
  mountApiRoute(router, pageApi.edit, token, requireScope('pages:write'), async (req, res) => {
    const changes = parseInput(editPageBody, req.body, { rootField: 'body' });
    res.json({ data: presentPage(await pages.edit(principalOf(res), String(req.params.page), changes)) });
  });
  return router;
}
