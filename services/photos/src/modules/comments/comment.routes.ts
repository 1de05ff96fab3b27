import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { commentApi } from './comment.openapi.js';
import { presentComment, presentCommentPage, presentNotificationPage } from './comment.presenter.js';
import type { CommentService } from './comment.service.js';
import { commentThreadQuery, markReadBody, notificationListQuery } from './comment.validation.js';
import { notificationApi } from './notification.openapi.js';
import type { NotificationService } from './notification.service.js';

/** /api/v1/comments (comments:read / comments:write) and /api/v1/notifications (comments:read); not capture-app endpoints. */
export function commentRoutes(auth: AuthService, comments: CommentService, notifications: NotificationService): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, commentApi.list, token, requireScope('comments:read'), async (req, res) => {
    const query = parseInput(commentThreadQuery, req.query, { rootField: 'query' });
    const thread = query.photo_id !== undefined ? { photoId: query.photo_id } : { projectId: query.project_id! };
    res.json(presentCommentPage(await comments.thread(principalOf(res), thread, query.page)));
  });
  mountApiRoute(router, commentApi.create, token, requireScope('comments:write'), async (req, res) => {
    res.status(201).json({ data: presentComment(await comments.create(principalOf(res), req.body)) });
  });
  mountApiRoute(router, notificationApi.list, token, requireScope('comments:read'), async (req, res) => {
    const query = parseInput(notificationListQuery, req.query);
    res.json(presentNotificationPage(await notifications.list(principalOf(res), { unreadOnly: query.unread, page: query.page })));
  });
  mountApiRoute(router, notificationApi.markRead, token, requireScope('comments:read'), async (req, res) => {
    const { ids } = parseInput(markReadBody, req.body, { rootField: 'body' });
    res.json({ data: { marked: await notifications.markRead(principalOf(res), ids) } });
  });
  return router;
}
