// The comment as REST answers it and webhooks carry it (one presenter for both; needs COMMENT_POPULATE loaded), and the
// caller's notifications.
import type { z } from 'zod';
import type { Comment, Notification } from './comment.entity.js';
import type { commentListResponse, commentResource } from './comment.openapi.js';
import type { CommentPage } from './comment.service.js';
import type { notificationListResponse, notificationResource } from './notification.openapi.js';
import type { NotificationPage } from './notification.service.js';

export function presentComment(comment: Comment): z.input<typeof commentResource> {
  const project = comment.project ?? comment.photo?.project ?? null;
  return {
    id: comment.id,
    body: comment.body,
    photo_id: comment.photo?.id ?? null,
    project: project ? { id: project.id, name: project.name } : null,
    author: comment.author ? { id: comment.author.id, name: comment.author.name } : null,
    mentions: comment.mentions.getItems().map((mention) => ({
      user: { id: mention.user.id, name: mention.user.name },
      text: comment.body.slice(mention.spanStart, mention.spanEnd),
      start: mention.spanStart,
      end: mention.spanEnd,
    })),
    created_at: comment.createdAt.toISOString(),
  };
}

export function presentCommentPage(page: CommentPage): z.input<typeof commentListResponse> {
  return {
    data: page.items.map(presentComment),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}

export function presentNotification(notification: Notification): z.input<typeof notificationResource> {
  return {
    id: notification.id,
    kind: notification.kind,
    comment: presentComment(notification.comment),
    read_at: notification.readAt?.toISOString() ?? null,
    created_at: notification.createdAt.toISOString(),
  };
}

export function presentNotificationPage(page: NotificationPage): z.input<typeof notificationListResponse> {
  return {
    data: page.items.map(presentNotification),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)), unread: page.unread },
  };
}
