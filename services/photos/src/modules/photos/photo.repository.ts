import { EntityRepository } from '@mikro-orm/postgresql';
import type { AssignmentSource, MediaType, Photo } from './photo.entity.js';

export interface PhotoFilter {
  teamId: number;
  projectId?: number | undefined;
  tag?: string | undefined;
  capturedFrom?: Date | undefined;
  capturedTo?: Date | undefined;
  source?: AssignmentSource | undefined;
}

export class PhotoRepository extends EntityRepository<Photo> {
  /** Newest capture first (captures without a time last), then newest upload. */
  async list(filter: PhotoFilter, page: { limit: number; offset: number }): Promise<{ items: Photo[]; total: number }> {
    const capturedAt = {
      ...(filter.capturedFrom ? { $gte: filter.capturedFrom } : {}),
      ...(filter.capturedTo ? { $lte: filter.capturedTo } : {}),
    };
    const where = {
      team: filter.teamId,
      ...(filter.projectId !== undefined ? { project: filter.projectId } : {}),
      ...(filter.tag !== undefined ? { tags: { $contains: [filter.tag] } } : {}),
      ...(Object.keys(capturedAt).length > 0 ? { capturedAt } : {}),
      ...(filter.source ? { assignmentSource: filter.source } : {}),
    };
    const [items, total] = await this.findAndCount(where, {
      populate: ['project'],
      orderBy: { capturedAt: 'desc nulls last', id: 'desc' },
      limit: page.limit,
      offset: page.offset,
    });
    return { items, total };
  }

  /** Photos and videos per project, for the projects' counts. */
  async countsByProject(projectIds: readonly number[]): Promise<Map<number, Record<MediaType, number>>> {
    const counts = new Map<number, Record<MediaType, number>>(projectIds.map((id) => [id, { photo: 0, video: 0 }]));
    if (projectIds.length === 0) return counts;
    const rows = await this.getEntityManager()
      .getConnection()
      .execute<Array<{ project_id: number; media_type: MediaType; count: string }>>(
        `select project_id, media_type, count(*) as count from photos where project_id in (${projectIds.map(() => '?').join(', ')}) group by project_id, media_type`,
        [...projectIds],
      );
    for (const row of rows) {
      const entry = counts.get(Number(row.project_id));
      if (entry) entry[row.media_type] = Number(row.count);
    }
    return counts;
  }

  /** Distinct tags of the team's photos, sorted. */
  async tagsInUse(teamId: number): Promise<string[]> {
    const rows = await this.getEntityManager()
      .getConnection()
      .execute<Array<{ tag: string }>>('select tag from (select distinct unnest(tags) as tag from photos where team_id = ?) as used order by tag collate "C"', [teamId]);
    return rows.map((row) => row.tag);
  }
}
