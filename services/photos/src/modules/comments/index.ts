// Comments on a team's photos and projects, with @mentions resolved at write time, and the notifications of the
// mentioned users (stored in the comment's transaction; GraphQL photosNotifications).
import { CommentMentionSchema, CommentSchema, NotificationSchema } from './comment.entity.js';

export { Comment, CommentMention, Notification, NOTIFICATION_KINDS, type NotificationKind } from './comment.entity.js';
export type { CommentEvent, CommentEventSink } from './comment-events.js';
export { CommentService, type CommentPage, type CommentServiceOptions } from './comment.service.js';
export { NotificationService, type NotificationPage } from './notification.service.js';
export { COMMENTS_PER_PAGE, COMMENT_BODY_MAX, type CommentThread, type NewComment } from './comment.validation.js';
export { presentComment, presentCommentPage, presentNotification, presentNotificationPage } from './comment.presenter.js';
export { commentRoutes } from './comment.routes.js';
export { commentApi, commentResource } from './comment.openapi.js';
export { notificationApi, notificationResource } from './notification.openapi.js';
export { commentResolvers } from './comment.resolvers.js';

export const commentEntities = [CommentSchema, CommentMentionSchema, NotificationSchema];
