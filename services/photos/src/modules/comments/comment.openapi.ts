// The comment routes as OpenAPI operations; comment.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { COMMENTS_PER_PAGE, commentThreadQuery, createCommentBody } from './comment.validation.js';

const userRef = z.object({ id: z.number().int(), name: z.string().meta({ description: 'The current name (a rename shows here; who is meant does not change).' }) });

export const commentMentionResource = z
  .object({
    user: userRef,
    text: z.string().meta({ description: 'The mention as written in the body, `@` included (body.slice(start, end)).' }),
    start: z.number().int().meta({ description: 'Offset of the `@` in body, UTF-16 code units (JavaScript string index).' }),
    end: z.number().int().meta({ description: 'Offset just past the mention, UTF-16 code units.' }),
  })
  .meta({ id: 'PhotosCommentMention' });

export const commentResource = z
  .object({
    id: z.number().int(),
    body: z.string().meta({ description: 'As authored (trimmed); never rendered or rewritten.' }),
    photo_id: z.number().int().nullable().meta({ description: "The photo commented on; null for a comment on a project's own thread." }),
    project: z
      .object({ id: z.number().int(), name: z.string() })
      .nullable()
      .meta({ description: "The project commented on; for a photo comment the photo's current project (null while it is unassigned)." }),
    author: userRef.nullable().meta({ description: 'Who wrote it (null only if that user was deleted).' }),
    mentions: z.array(commentMentionResource).meta({ description: 'Resolved @mentions in body order, each occurrence; unresolved ones are plain text.' }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosComment' });

const commentPageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosCommentPageMeta' });

export const commentResponse = z.object({ data: commentResource });
export const commentListResponse = z.object({ data: z.array(commentResource), meta: commentPageMeta });

export const commentApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/comments`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'listComments',
      summary: 'Read the comment thread of a photo or a project',
      description: `Exactly one of \`photo_id\` and \`project_id\` (neither or both: 422 on \`query\`). Oldest first, ${COMMENTS_PER_PAGE} per page. A photo or project of another team reads as 404, like a missing one. A project's thread holds the comments on the project itself, not those on its photos. Needs \`comments:read\`.`,
      tags: ['Comments'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: commentThreadQuery },
      responses: { '200': { description: 'One page of the thread.', content: { 'application/json': { schema: commentListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/comments`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'createComment',
      summary: 'Post a comment on a photo or a project, with @mentions',
      description:
        'Exactly one of `photo_id` and `project_id`, and a `body`. @mentions of teammates (`@ana@example.com`, `@"Ana Ruiz"`, `@Ana`) are resolved now and stored by user id with their offsets; unknown or ambiguous ones stay plain text. Each mentioned teammate other than the author gets a notification (`GET /api/v1/notifications`, GraphQL `photosNotifications`), and `comment.created` is announced to the team\'s webhooks. Another team\'s photo or project: 404. Answers 201 with the comment. Needs `comments:write`.',
      tags: ['Comments'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createCommentBody } } },
      responses: { '201': { description: 'The new comment with its resolved mentions.', content: { 'application/json': { schema: commentResponse } } } },
    },
  }),
};
