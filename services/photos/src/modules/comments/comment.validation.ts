// The comment inputs as zod schemas: the thread query (GET) and the create body (POST). REST parses with them, the
// OpenAPI document shows them, and the service checks GraphQL's typed input with the same create schema.
import { integerQueryParam, integerRangeMessage, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { MAX_ID } from '../photos/index.js';

/** Page size of comment threads and notification lists (as for projects and photos). */
export const COMMENTS_PER_PAGE = 25;
export const COMMENTS_PAGE_MAX = 10_000;
/** Longest comment body, characters (after trimming). */
export const COMMENT_BODY_MAX = 5_000;
export const ONE_TARGET = 'Give exactly one of photo_id and project_id.';

/** An optional id in the query: digits only, 1..MAX_ID (the kit's integer message), documented as an integer. */
function queryId(description: string) {
  const error = integerRangeMessage(1, MAX_ID);
  return z
    .string()
    .regex(/^\d{1,10}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(1, { error }).max(MAX_ID, { error }))
    .optional()
    .meta({
      description,
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_ID, description });
      },
    });
}
const bodyId = (description: string) => z.number().int().min(1).max(MAX_ID).optional().meta({ description });

/**
 * Exactly one target. In a body the problem is named on both fields; in a query on `query` itself, since each
 * parameter alone is well-formed (a documented value is never refused for that parameter).
 */
function exactlyOneTarget(paths: ReadonlyArray<readonly string[]>) {
  return (value: { photo_id?: number | undefined; project_id?: number | undefined }, ctx: z.RefinementCtx): void => {
    if ((value.photo_id === undefined) !== (value.project_id === undefined)) return;
    for (const path of paths) ctx.addIssue({ code: 'custom', message: ONE_TARGET, path: [...path] });
  };
}

export const commentThreadQuery = z
  .object({
    photo_id: queryId('The photo whose thread to read (give this or project_id).'),
    project_id: queryId("The project whose own thread to read (give this or photo_id); its photos' threads are apart."),
    page: integerQueryParam({ min: 1, max: COMMENTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${COMMENTS_PER_PAGE} comments per page.` }),
  })
  .superRefine(exactlyOneTarget([[]]));

export const createCommentBody = z
  .strictObject({
    photo_id: bodyId('Comment on this photo of your team (give this or project_id).'),
    project_id: bodyId('Comment on this project of your team (give this or photo_id).'),
    body: wellFormedText(
      z
        .string()
        .trim()
        .min(1, { error: 'This field is required.' })
        .max(COMMENT_BODY_MAX, { error: `Must be at most ${COMMENT_BODY_MAX} characters.` }),
    ).meta({ description: `The text, 1–${COMMENT_BODY_MAX} characters (trimmed), kept as written. @mentions: @email, @"Full Name" or @Name (see the README).` }),
  })
  .superRefine(exactlyOneTarget([['photo_id'], ['project_id']]))
  .meta({ id: 'PhotosCommentCreate' });
export type NewComment = z.input<typeof createCommentBody>;

/** Which thread: a photo's or a project's own. */
export type CommentThread = { photoId: number } | { projectId: number };

/** A page number alone (GraphQL threads and notifications: the same bounds and 422 as REST). */
export const pageQuery = z.object({
  page: integerQueryParam({ min: 1, max: COMMENTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${COMMENTS_PER_PAGE} per page.` }),
});

/** Most ids one mark-read request may name. */
export const MARK_READ_IDS_MAX = 100;

/** GET /api/v1/notifications: `unread=1` (or `true`) lists only unread ones. */
export const notificationListQuery = pageQuery.extend({
  unread: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .transform((value) => value === '1' || value === 'true')
    .meta({ description: '`1` or `true`: only unread notifications (default: all).' }),
});

/** POST /api/v1/notifications/read: the caller's notifications to mark read, or all unread ones without `ids`. */
export const markReadBody = z
  .strictObject({
    ids: z
      .array(z.number().int().min(1).max(MAX_ID))
      .max(MARK_READ_IDS_MAX, { error: `At most ${MARK_READ_IDS_MAX} ids.` })
      .optional()
      .meta({ description: `Notification ids (at most ${MARK_READ_IDS_MAX}); others', unknown and already read ones are skipped. Omitted: every unread notification of the caller in this team.` }),
  })
  .meta({ id: 'PhotosNotificationsMarkRead' });
