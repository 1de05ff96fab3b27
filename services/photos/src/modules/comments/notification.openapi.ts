// The caller's notifications over REST (additive to the spec: the list GraphQL also answers, and marking read).
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { NOTIFICATION_KINDS } from './comment.entity.js';
import { commentResource } from './comment.openapi.js';
import { COMMENTS_PER_PAGE, markReadBody, notificationListQuery } from './comment.validation.js';

export const notificationResource = z
  .object({
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS).meta({ description: '`mention`: the caller was @mentioned in `comment`.' }),
    comment: commentResource,
    read_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosNotification' });

const notificationPageMeta = z
  .object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
    unread: z.number().int().meta({ description: "The caller's unread notifications in this team, whatever the filter." }),
  })
  .meta({ id: 'PhotosNotificationPageMeta' });

export const notificationListResponse = z.object({ data: z.array(notificationResource), meta: notificationPageMeta });
export const markReadResponse = z.object({ data: z.object({ marked: z.number().int().meta({ description: 'How many notifications changed to read.' }) }) });

export const notificationApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/notifications`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listNotifications',
      summary: "List the caller's notifications",
      description: `The signed-in user's own notifications in the token's team (today: @mentions in comments), newest first, ${COMMENTS_PER_PAGE} per page; \`meta.unread\` counts the unread ones. Needs \`comments:read\`. Additive to the spec (GraphQL \`photosNotifications\` answers the same).`,
      tags: ['Comments'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: notificationListQuery },
      responses: { '200': { description: 'One page of notifications.', content: { 'application/json': { schema: notificationListResponse } } } },
    },
  }),
  markRead: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/notifications/read`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'markNotificationsRead',
      summary: "Mark the caller's notifications read",
      description: "Those named in `ids` (another user's, unknown and already read ids are skipped), or every unread one when `ids` is omitted; answers how many changed. Needs `comments:read` (it changes only the caller's own reading state). Additive to the spec.",
      tags: ['Comments'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: markReadBody } } },
      responses: { '200': { description: 'How many changed.', content: { 'application/json': { schema: markReadResponse } } } },
    },
  }),
};
