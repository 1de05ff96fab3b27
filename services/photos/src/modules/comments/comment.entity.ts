import { defineEntity, p } from '@mikro-orm/core';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { Team, User } from '../teams/index.js';

/**
 * A comment on a photo or on a project of a team (exactly one of the two: a check constraint). The body is kept as
 * authored; its resolved @mentions are CommentMention rows (user ids and offsets), fixed at write time.
 */
export const CommentSchema = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  checks: [{ name: 'comments_one_target_check', expression: 'num_nonnulls(photo_id, project_id) = 1' }],
  // A thread is read oldest first: by target, then id.
  indexes: [{ properties: ['photo', 'id'] }, { properties: ['project', 'id'] }, { properties: ['team'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    photo: () => p.manyToOne(Photo).deleteRule('cascade').nullable(),
    project: () => p.manyToOne(Project).deleteRule('cascade').nullable(),
    /** Null only if the author's user record is deleted (users are not deleted today). */
    author: () => p.manyToOne(User).deleteRule('set null').nullable(),
    body: p.text(),
    mentions: () => p.oneToMany(CommentMention).mappedBy('comment').orderBy({ spanStart: 'asc' }),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Comment extends CommentSchema.class {}
CommentSchema.setClass(Comment);

/** One resolved @mention in a comment: who (by id, so a later rename changes nothing) and where in the body. */
export const CommentMentionSchema = defineEntity({
  name: 'CommentMention',
  tableName: 'comment_mentions',
  indexes: [{ properties: ['comment'] }, { properties: ['user'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    comment: () => p.manyToOne(Comment).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** UTF-16 code unit offsets into the body, `spanEnd` exclusive; the span starts at the `@`. */
    spanStart: p.integer(),
    spanEnd: p.integer(),
  },
});

export class CommentMention extends CommentMentionSchema.class {}
CommentMentionSchema.setClass(CommentMention);

export const NOTIFICATION_KINDS = ['mention'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Something for one user to look at, in one team: today "you were mentioned in a comment". Written in the comment's
 * transaction, so no mention goes unnotified; once per user and comment however often the comment names them.
 */
export const NotificationSchema = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  uniques: [{ properties: ['user', 'comment', 'kind'] }],
  indexes: [{ properties: ['user', 'team', 'id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.enum(NOTIFICATION_KINDS),
    comment: () => p.manyToOne(Comment).deleteRule('cascade'),
    readAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Notification extends NotificationSchema.class {}
NotificationSchema.setClass(Notification);
