import { enumMapping, parseInput } from '@tributary/kit';
import type { PhotosNotificationKind, Resolvers } from '../../graphql/resolvers-types.js';
import type { NotificationKind } from './comment.entity.js';
import { idInput } from '../../graphql-ids.js';
import { markReadBody, pageQuery, type NewComment } from './comment.validation.js';

const notificationKind = enumMapping<NotificationKind, PhotosNotificationKind>({ mention: 'MENTION' });

/** A GraphQL page argument through the REST page rule (1..10000; else BAD_USER_INPUT naming page). */
function pageOf(page: number | null | undefined): number {
  return parseInput(pageQuery, { page: page == null ? undefined : String(page) }).page;
}

/** A GraphQL ID as a body id: digits become the number, anything else NaN, which the create schema refuses (422). */
function idOf(id: string | null | undefined): number | undefined {
  if (id == null) return undefined;
  return /^\d{1,10}$/.test(id) ? Number(id) : Number.NaN;
}

function newComment(input: { photoId?: string | null; projectId?: string | null; body: string }): NewComment {
  return { photo_id: idOf(input.photoId), project_id: idOf(input.projectId), body: input.body };
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosComment's parent is the Comment entity,
// loaded with COMMENT_POPULATE by the service).
export const commentResolvers = {
  Query: {
    photosNotifications: async (_parent, args, ctx) =>
      ctx.notifications.list(await ctx.principalWith('comments:read'), { unreadOnly: args.unreadOnly ?? false, page: pageOf(args.page) }),
  },
  Mutation: {
    createPhotosComment: async (_parent, { input }, ctx) => ctx.comments.create(await ctx.principalWith('comments:write'), newComment(input)),
    // POST /notifications/read's body rule: at most 100 ids, each 1..MAX_ID (BAD_USER_INPUT naming ids.<i>).
    markPhotosNotificationsRead: async (_parent, { ids }, ctx) => {
      const principal = await ctx.principalWith('comments:read');
      return ctx.notifications.markRead(principal, parseInput(markReadBody, { ids: ids?.map(idInput) }, { rootField: 'ids' }).ids);
    },
  },
  PhotosProject: {
    comments: async (project, args, ctx) => ctx.comments.thread(await ctx.principalWith('comments:read'), { projectId: project.id }, pageOf(args.page)),
  },
  PhotosPhoto: {
    comments: async (photo, args, ctx) => ctx.comments.thread(await ctx.principalWith('comments:read'), { photoId: photo.id }, pageOf(args.page)),
  },
  PhotosComment: {
    id: (comment) => String(comment.id),
    photoId: (comment) => (comment.photo ? String(comment.photo.id) : null),
    photo: async (comment, _args, ctx) => {
      await ctx.principalWith('photos:read');
      return comment.photo ?? null;
    },
    project: async (comment, _args, ctx) => {
      await ctx.principalWith('projects:read');
      return comment.project ?? comment.photo?.project ?? null;
    },
    author: (comment) => (comment.author ? { id: String(comment.author.id), name: comment.author.name } : null),
    mentions: (comment) => comment.mentions.getItems(),
    createdAt: (comment) => comment.createdAt.toISOString(),
  },
  PhotosCommentMention: {
    user: (mention) => ({ id: String(mention.user.id), name: mention.user.name }),
    text: (mention) => mention.comment.body.slice(mention.spanStart, mention.spanEnd),
    start: (mention) => mention.spanStart,
    end: (mention) => mention.spanEnd,
  },
  PhotosNotification: {
    id: (notification) => String(notification.id),
    kind: (notification) => notificationKind(notification.kind),
    comment: (notification) => notification.comment,
    readAt: (notification) => notification.readAt?.toISOString() ?? null,
    createdAt: (notification) => notification.createdAt.toISOString(),
  },
} satisfies Resolvers;
