import { EntityRepository } from '@mikro-orm/postgresql';
import type { Project, ProjectStatus } from './project.entity.js';

export interface ProjectListQuery {
  teamId: number;
  q?: string | undefined;
  status?: ProjectStatus | undefined;
  page: number;
  perPage: number;
}

export class ProjectRepository extends EntityRepository<Project> {
  /** Newest activity first; `q` matches name or address, case-insensitively. */
  async list(query: ProjectListQuery): Promise<{ items: Project[]; total: number }> {
    const where = {
      team: query.teamId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { $or: [{ name: { $ilike: `%${escapeLike(query.q)}%` } }, { address: { $ilike: `%${escapeLike(query.q)}%` } }] } : {}),
    };
    const [items, total] = await this.findAndCount(where, {
      orderBy: { lastActivityAt: 'desc', id: 'desc' },
      limit: query.perPage,
      offset: (query.page - 1) * query.perPage,
    });
    return { items, total };
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
