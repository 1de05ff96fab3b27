import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, parseInput, transactionWithAfterCommit, type AfterCommit } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { TeamMembership } from '../teams/index.js';
import { mayMention, resolveMentions, type Teammate } from './comment-mentions.js';
import type { CommentEventSink } from './comment-events.js';
import { Comment, CommentMention, Notification } from './comment.entity.js';
import { presentComment } from './comment.presenter.js';
import { COMMENTS_PER_PAGE, createCommentBody, type CommentThread, type NewComment } from './comment.validation.js';

export interface CommentPage {
  items: Comment[];
  total: number;
  page: number;
  perPage: number;
}

export interface CommentServiceOptions {
  /** Where comment.created goes (the team's webhooks); none: nothing is announced. */
  events?: CommentEventSink | undefined;
}

/** What a comment's presentation reads besides its own columns. */
export const COMMENT_POPULATE = ['author', 'project', 'photo.project', 'mentions.user'] as const;

/** Comments on a team's photos and projects, with @mentions and the mentioned users' notifications. */
export class CommentService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: CommentServiceOptions = {},
  ) {}

  /** One thread, oldest first; the target must be the caller's team's (else 404, like a missing one). */
  async thread(principal: PhotosPrincipal, thread: CommentThread, page = 1): Promise<CommentPage> {
    const target = await this.target(this.em, principal, thread);
    const [items, total] = await this.em.getRepository(Comment).findAndCount(
      { team: principal.teamId, ...target },
      { populate: COMMENT_POPULATE, orderBy: { id: 'asc' }, limit: COMMENTS_PER_PAGE, offset: (page - 1) * COMMENTS_PER_PAGE },
    );
    return { items, total, page, perPage: COMMENTS_PER_PAGE };
  }

  /**
   * Posts a comment as the caller: mentions resolved among the team's members now and stored by user id, a notification
   * for each mentioned user other than the author, and comment.created queued, all in one transaction.
   */
  async create(principal: PhotosPrincipal, input: NewComment): Promise<Comment> {
    const draft = parseInput(createCommentBody, input, { rootField: 'body' });
    const thread: CommentThread = draft.photo_id !== undefined ? { photoId: draft.photo_id } : { projectId: draft.project_id! };
    const id = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const target = await this.target(tx, principal, thread);
      const comment = tx.create(Comment, { team: principal.teamId, ...target, author: principal.userId, body: draft.body });
      const mentions = mayMention(draft.body) ? resolveMentions(draft.body, await teammates(tx, principal.teamId)) : [];
      for (const mention of mentions) tx.create(CommentMention, { comment, user: mention.userId, spanStart: mention.start, spanEnd: mention.end });
      for (const userId of new Set(mentions.map((mention) => mention.userId))) {
        if (userId !== principal.userId) tx.create(Notification, { team: principal.teamId, user: userId, kind: 'mention', comment, readAt: null });
      }
      await tx.flush();
      return { result: comment.id, afterCommit: await this.announce(tx, comment) };
    });
    return this.em.getRepository(Comment).findOneOrFail({ id }, { populate: COMMENT_POPULATE });
  }

  /** The photo or project a thread belongs to, as the comment's columns; another team's or a missing one: 404. */
  private async target(em: EntityManager, principal: PhotosPrincipal, thread: CommentThread): Promise<{ photo: Photo } | { project: Project }> {
    if ('photoId' in thread) {
      const photo = await em.getRepository(Photo).findOne({ id: thread.photoId, team: principal.teamId });
      if (!photo) throw new NotFoundError(`photo ${thread.photoId}`);
      return { photo };
    }
    const project = await em.getRepository(Project).findOne({ id: thread.projectId, team: principal.teamId });
    if (!project) throw new NotFoundError(`project ${thread.projectId}`);
    return { project };
  }

  private async announce(tx: EntityManager, comment: Comment): Promise<AfterCommit | undefined> {
    if (!this.options.events) return undefined;
    await tx.populate(comment, COMMENT_POPULATE);
    return this.options.events.emit(tx, comment.team.id, 'comment.created', presentComment(comment));
  }
}

/** The team's members as mentions resolve them (one query; teams are tens to hundreds of people). */
async function teammates(em: EntityManager, teamId: number): Promise<Teammate[]> {
  const memberships = await em.getRepository(TeamMembership).find({ team: teamId }, { populate: ['user'] });
  return memberships.map(({ user }) => ({ id: user.id, name: user.name, email: user.email }));
}
