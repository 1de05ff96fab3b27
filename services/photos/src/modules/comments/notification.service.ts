import type { EntityManager } from '@mikro-orm/postgresql';
import type { PhotosPrincipal } from '../auth/index.js';
import { Notification } from './comment.entity.js';
import { COMMENT_POPULATE } from './comment.service.js';
import { COMMENTS_PER_PAGE } from './comment.validation.js';

export interface NotificationPage {
  items: Notification[];
  total: number;
  /** The caller's unread notifications in this team (whatever the filter). */
  unread: number;
  page: number;
  perPage: number;
}

/** The caller's own notifications in the token's team (mentions today); nobody reads or marks another's. */
export class NotificationService {
  constructor(private readonly em: EntityManager) {}

  /** Newest first; `unreadOnly` leaves out the read ones. */
  async list(principal: PhotosPrincipal, query: { unreadOnly?: boolean | undefined; page?: number | undefined } = {}): Promise<NotificationPage> {
    const page = query.page ?? 1;
    const mine = { user: principal.userId, team: principal.teamId };
    const repository = this.em.getRepository(Notification);
    const [items, total] = await repository.findAndCount(query.unreadOnly ? { ...mine, readAt: null } : mine, {
      populate: COMMENT_POPULATE.map((path) => `comment.${path}` as const),
      orderBy: { id: 'desc' },
      limit: COMMENTS_PER_PAGE,
      offset: (page - 1) * COMMENTS_PER_PAGE,
    });
    const unread = await repository.count({ ...mine, readAt: null });
    return { items, total, unread, page, perPage: COMMENTS_PER_PAGE };
  }

  /**
   * Marks the caller's notifications read: those of `ids` (others', unknown and already read ones are skipped), or all
   * unread ones when `ids` is omitted. Answers how many changed.
   */
  async markRead(principal: PhotosPrincipal, ids?: readonly number[] | undefined): Promise<number> {
    if (ids && ids.length === 0) return 0;
    const where = { user: principal.userId, team: principal.teamId, readAt: null, ...(ids ? { id: { $in: [...ids] } } : {}) };
    return this.em.getRepository(Notification).nativeUpdate(where, { readAt: new Date() });
  }
}
