// The open tasks a project holds, as the projects module's count source (`open_tasks` of GET /api/v1/projects/{project}).
import type { ProjectCountSource } from '../projects/index.js';
import type { TaskService } from './task.service.js';

export function taskCountSource(tasks: TaskService): ProjectCountSource {
  return {
    async countsFor(_teamId, projectId) {
      return { open_tasks: (await tasks.openCountsByProject([projectId])).get(projectId) ?? 0 };
    },
  };
}
