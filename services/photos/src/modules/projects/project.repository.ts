import { EntityRepository } from '@mikro-orm/postgresql';
import type { Project, ProjectStatus } from './project.entity.js';

export interface ProjectListQuery {
  teamId: number;
  q?: string | undefined;
  status?: ProjectStatus | undefined;
  page: number;
  perPage: number;
}

export interface LatLngBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

export class ProjectRepository extends EntityRepository<Project> {
  /**
   * Active projects of the team with coordinates inside the box: the candidates of GPS matching. The conditions repeat
   * the partial index's predicate (projects_matchable_team_id_latitude_longitude_index), so the planner uses it.
   */
  async activeWithCoordinatesIn(teamId: number, box: LatLngBox): Promise<Project[]> {
    return this.find(
      {
        team: teamId,
        status: 'active',
        latitude: { $gte: box.minLat, $lte: box.maxLat, $ne: null },
        longitude: { $gte: box.minLng, $lte: box.maxLng, $ne: null },
      },
      { orderBy: { id: 'asc' } },
    );
  }

  /** Every active project of the team, newest activity first, in one query (bootstrap). */
  async allActive(teamId: number): Promise<Project[]> {
    return this.find({ team: teamId, status: 'active' }, { orderBy: { lastActivityAt: 'desc', id: 'desc' } });
  }

  /** The project an Idempotency-Key already used in the team made, if any. */
  findByIdempotencyKey(teamId: number, idempotencyKey: string): Promise<Project | null> {
    return this.findOne({ team: teamId, idempotencyKey });
  }

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
