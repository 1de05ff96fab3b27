import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import type { MediaUrlSigner } from '../photos/index.js';
import { REST_BASE } from '../../api-paths.js';
import { checklistApi } from './checklist.openapi.js';
import { presentChecklist, presentChecklistItem, presentChecklistPage } from './checklist.presenter.js';
import type { ChecklistService } from './checklist.service.js';
import { checklistListQueryOf } from './checklist.validation.js';

/** /api/v1/checklists and /api/v1/checklist-items (checklists:read / checklists:write; reads and ticks are capture endpoints). */
export function checklistRoutes(auth: AuthService, checklists: ChecklistService, urls: MediaUrlSigner): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, checklistApi.create, token, requireScope('checklists:write'), async (req, res) => {
    const checklist = await checklists.create(principalOf(res), req.body);
    res.status(201).location(`${REST_BASE}/checklists/${checklist.id}`).json({ data: presentChecklist(checklist, urls) });
  });
  mountApiRoute(router, checklistApi.list, token, requireScope('checklists:read', { capture: true }), async (req, res) => {
    res.json(presentChecklistPage(await checklists.list(principalOf(res), checklistListQueryOf(req.query)), urls));
  });
  mountApiRoute(router, checklistApi.get, token, requireScope('checklists:read', { capture: true }), async (req, res) => {
    res.json({ data: presentChecklist(await checklists.get(principalOf(res), String(req.params.checklist)), urls) });
  });
  mountApiRoute(router, checklistApi.update, token, requireScope('checklists:write'), async (req, res) => {
    res.json({ data: presentChecklist(await checklists.update(principalOf(res), String(req.params.checklist), req.body), urls) });
  });
  mountApiRoute(router, checklistApi.updateItem, token, requireScope('checklists:write', { capture: true }), async (req, res) => {
    res.json({ data: presentChecklistItem(await checklists.updateItem(principalOf(res), String(req.params.item), req.body), urls) });
  });
  return router;
}
