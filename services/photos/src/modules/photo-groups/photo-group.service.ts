import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, ValidationError, parseInput } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Photo } from '../photos/index.js';
import { pairProblems } from './photo-group-rules.js';
import { PhotoGroup } from './photo-group.entity.js';
import { PHOTO_GROUPS_PER_PAGE, createPhotoGroupBody } from './photo-group.validation.js';

export interface PhotoGroupPage {
  items: PhotoGroup[];
  total: number;
  page: number;
  perPage: number;
}

export const ALREADY_PAIRED = 'These photos are already paired as before and after.';
const POPULATE = ['before.project', 'after.project'] as const;

/** Before/after pairs of the caller's team, for REST and GraphQL; callers have checked the scope. */
export class PhotoGroupService {
  constructor(private readonly em: EntityManager) {}

  /** Pairs two photos of the team (photo-group-rules.ts); the same ordered pair twice is a 409. */
  async create(principal: PhotosPrincipal, body: unknown): Promise<PhotoGroup> {
    const input = parseInput(createPhotoGroupBody, body, { rootField: 'body' });
    const [before, after] = await Promise.all([this.teamPhoto(principal, input.before_photo_id), this.teamPhoto(principal, input.after_photo_id)]);
    const problems = pairProblems(before && pairable(before), after && pairable(after));
    if (problems) throw new ValidationError(problems);
    try {
      const group = this.em.create(PhotoGroup, { team: principal.teamId, before: before!, after: after! });
      await this.em.flush();
      return group;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new ConflictError(ALREADY_PAIRED);
      throw error;
    }
  }

  /** The team's pairs, newest first, both halves loaded. */
  async list(principal: PhotosPrincipal, query: { page?: number | undefined; projectId?: number | undefined }): Promise<PhotoGroupPage> {
    const page = query.page ?? 1;
    const [items, total] = await this.em.getRepository(PhotoGroup).findAndCount(
      { team: principal.teamId, ...(query.projectId !== undefined ? { before: { project: query.projectId } } : {}) },
      { populate: POPULATE, orderBy: { createdAt: 'desc', id: 'desc' }, limit: PHOTO_GROUPS_PER_PAGE, offset: (page - 1) * PHOTO_GROUPS_PER_PAGE },
    );
    return { items, total, page, perPage: PHOTO_GROUPS_PER_PAGE };
  }

  /** Pairs per project (a pair belongs to its before photo's project), for the projects' counts. */
  async countsByProject(projectIds: readonly number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(projectIds.map((id) => [id, 0]));
    if (projectIds.length === 0) return counts;
    const rows = await this.em
      .getConnection()
      .execute<Array<{ project_id: number; count: string }>>(
        `select p.project_id, count(*) as count from photo_groups g join photos p on p.id = g.before_id where p.project_id in (${projectIds.map(() => '?').join(', ')}) group by p.project_id`,
        [...projectIds],
      );
    for (const row of rows) counts.set(Number(row.project_id), Number(row.count));
    return counts;
  }

  private async teamPhoto(principal: PhotosPrincipal, id: number): Promise<Photo | null> {
    return this.em.getRepository(Photo).findOne({ id, team: principal.teamId }, { populate: ['project'] });
  }
}

function pairable(photo: Photo) {
  return { id: photo.id, projectId: photo.project?.id ?? null, capturedAt: photo.capturedAt ?? null };
}
