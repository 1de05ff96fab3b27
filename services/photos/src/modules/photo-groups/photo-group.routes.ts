import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import type { MediaUrlSigner } from '../photos/index.js';
import { photoGroupApi } from './photo-group.openapi.js';
import { presentPhotoGroup, presentPhotoGroupPage } from './photo-group.presenter.js';
import type { PhotoGroupService } from './photo-group.service.js';
import { listPhotoGroupsQuery } from './photo-group.validation.js';

/** /api/v1/photo-groups (photos:read / photos:write; both endpoints of the capture app). */
export function photoGroupRoutes(auth: AuthService, groups: PhotoGroupService, urls: MediaUrlSigner): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, photoGroupApi.create, token, requireScope('photos:write', { capture: true }), async (req, res) => {
    res.status(201).json({ data: presentPhotoGroup(await groups.create(principalOf(res), req.body), urls) });
  });
  mountApiRoute(router, photoGroupApi.list, token, requireScope('photos:read', { capture: true }), async (req, res) => {
    const page = await groups.list(principalOf(res), parseInput(listPhotoGroupsQuery, req.query));
    res.json(presentPhotoGroupPage(page, urls));
  });
  return router;
}
