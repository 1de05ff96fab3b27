// The photos and videos a project holds, as the projects module's count source (GET /api/v1/projects/{project}).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectCountSource } from '../projects/index.js';
import { Photo } from './photo.entity.js';

export function photoCountSource(em: EntityManager): ProjectCountSource {
  return {
    async countsFor(_teamId, projectId) {
      const counts = (await em.getRepository(Photo).countsByProject([projectId])).get(projectId) ?? { photo: 0, video: 0 };
      return { photos: counts.photo, videos: counts.video };
    },
  };
}
