import { mountApiRoute, parseInput } from '@tributary/kit';
import { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { commentApi } from './comment.openapi.js';
import { presentComment, presentCommentPage } from './comment.presenter.js';
import type { CommentService } from './comment.service.js';
import { commentThreadQuery } from './comment.validation.js';

/** /api/v1/comments (comments:read / comments:write; not capture-app endpoints). */
export function commentRoutes(auth: AuthService, comments: CommentService): Router {
  const router = Router();
  const token = requireToken(auth);
  mountApiRoute(router, commentApi.list, token, requireScope('comments:read'), async (req, res) => {
    const query = parseInput(commentThreadQuery, req.query, { rootField: 'query' });
    const thread = query.photo_id !== undefined ? { photoId: query.photo_id } : { projectId: query.project_id! };
    res.json(presentCommentPage(await comments.thread(principalOf(res), thread, query.page)));
  });
  mountApiRoute(router, commentApi.create, token, requireScope('comments:write'), async (req, res) => {
    res.status(201).json({ data: presentComment(await comments.create(principalOf(res), req.body)) });
  });
  return router;
}
