// The before/after pairs a project holds, as the projects module's count source (GET /api/v1/projects/{project}).
import type { ProjectCountSource } from '../projects/index.js';
import type { PhotoGroupService } from './photo-group.service.js';

export function photoGroupCountSource(groups: PhotoGroupService): ProjectCountSource {
  return {
    async countsFor(_teamId, projectId) {
      return { photo_groups: (await groups.countsByProject([projectId])).get(projectId) ?? 0 };
    },
  };
}
