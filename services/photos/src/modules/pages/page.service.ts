import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, parseInput, transactionWithAfterCommit } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Project } from '../projects/index.js';
import { User } from '../teams/index.js';
import type { PageEvent, PageEventSink } from './page-events.js';
import { pageExcerpt } from './page-render.js';
import { Page } from './page.entity.js';
import { presentPage } from './page.presenter.js';
import { PAGES_PER_PAGE, editPageBody, newPage, type NewPage, type PageChanges, type PageListQuery } from './page.validation.js';

export interface PageList {
  /** Loaded whole: REST lists leave the bodies out, GraphQL may ask for them. */
  items: Page[];
  total: number;
  page: number;
  perPage: number;
}

export interface PageServiceOptions {
  /** Where page.created / page.updated go (the team's webhooks); none: nothing is announced. */
  events?: PageEventSink | undefined;
}

export const NO_SUCH_PROJECT = 'No project with this id in your team.';
const ID = /^\d{1,10}$/;
// Title and body, lowercased and unaccented (the migration's function), hold the query as a substring: the query is
// normalised the same way and escaped after that, so no character of it is a wildcard (photos_search.contains_pattern).
const SEARCH_CONDITION = `photos_search.normalize(p."title" || ' ' || p."body") like photos_search.contains_pattern(?)`;

/** Pages of the caller's team, for REST and GraphQL; callers have checked the scope (pages:read / pages:write). */
export class PageService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: PageServiceOptions = {},
  ) {}

  /** The team's pages (of one project, matching q), last edited first. */
  async list(principal: PhotosPrincipal, query: PageListQuery): Promise<PageList> {
    const page = query.page ?? 1;
    const { ids, total } = await this.matchingIds(principal.teamId, query, page);
    const loaded = ids.length === 0 ? [] : await this.em.find(Page, { id: { $in: ids } }, { populate: ['project'] });
    const byId = new Map(loaded.map((item) => [item.id, item]));
    return { items: ids.map((id) => byId.get(id)!), total, page, perPage: PAGES_PER_PAGE };
  }

  /** One page of the team; another team's, an unknown or a malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string): Promise<Page> {
    const page = await this.findVisible(principal, id);
    if (!page) throw new NotFoundError(`page ${id.slice(0, 40)}`);
    return page;
  }

  /** Entity resolution: a page is visible only inside its own team. */
  async findVisible(principal: PhotosPrincipal, id: string): Promise<Page | null> {
    if (!ID.test(id)) return null;
    return this.em.getRepository(Page).findOne({ id: Number(id), team: principal.teamId }, { populate: ['project'] });
  }

  /** Writes a page in a project of the team (checked again: GraphQL arguments arrive unchecked); announces page.created. */
  async create(principal: PhotosPrincipal, draft: NewPage): Promise<Page> {
    const input = parseInput(newPage, draft);
    return transactionWithAfterCommit<Page>(this.em, async (tx) => {
      const project = await tx.findOne(Project, { id: input.projectId, team: principal.teamId });
      if (!project) throw new ValidationError({ project_id: [NO_SUCH_PROJECT] });
      const editor = await tx.findOneOrFail(User, principal.userId);
      const page = tx.create(Page, {
        team: principal.teamId, project, title: input.title, body: input.body, excerpt: pageExcerpt(input.body), updatedBy: editor, updatedByName: editor.name,
      });
      await tx.flush();
      return { result: page, afterCommit: await this.announce(tx, principal, page, 'page.created') };
    });
  }

  /** Edits title and/or body; a real change records the editor and the time and announces page.updated. */
  async edit(principal: PhotosPrincipal, id: string, changes: PageChanges): Promise<Page> {
    const edit = parseInput(editPageBody, changes);
    return transactionWithAfterCommit<Page>(this.em, async (tx) => {
      const page = ID.test(id) ? await tx.findOne(Page, { id: Number(id), team: principal.teamId }, { populate: ['project'] }) : null;
      if (!page) throw new NotFoundError(`page ${id.slice(0, 40)}`);
      const changed = (edit.title !== undefined && edit.title !== page.title) || (edit.body !== undefined && edit.body !== page.body);
      if (!changed) return { result: page };
      const editor = await tx.findOneOrFail(User, principal.userId);
      Object.assign(page, { title: edit.title ?? page.title, body: edit.body ?? page.body, updatedBy: editor, updatedByName: editor.name, updatedAt: new Date() });
      page.excerpt = pageExcerpt(page.body);
      await tx.flush();
      return { result: page, afterCommit: await this.announce(tx, principal, page, 'page.updated') };
    });
  }

  private announce(tx: EntityManager, principal: PhotosPrincipal, page: Page, event: PageEvent) {
    return this.options.events?.emit(tx, principal.teamId, event, presentPage(page));
  }

  /** Ids of one page of matches, last edited first, and the number of matches (one statement, a window count). */
  private async matchingIds(teamId: number, query: PageListQuery, page: number): Promise<{ ids: number[]; total: number }> {
    const where = [`p."team_id" = ?`];
    const params: unknown[] = [teamId];
    if (query.projectId !== undefined) {
      where.push(`p."project_id" = ?`);
      params.push(query.projectId);
    }
    if (query.q) {
      where.push(SEARCH_CONDITION);
      params.push(query.q);
    }
    const conditions = where.join(' and ');
    const rows = await this.em.getConnection().execute<Array<{ id: number; total: string }>>(
      `select p."id", count(*) over () as total from "pages" p where ${conditions} order by p."updated_at" desc, p."id" desc limit ? offset ?`,
      [...params, PAGES_PER_PAGE, (page - 1) * PAGES_PER_PAGE],
    );
    if (rows.length > 0 || page === 1) return { ids: rows.map((row) => Number(row.id)), total: Number(rows[0]?.total ?? 0) };
    const [count] = await this.em.getConnection().execute<Array<{ total: string }>>(`select count(*) as total from "pages" p where ${conditions}`, params);
    return { ids: [], total: Number(count?.total ?? 0) };
  }
}
