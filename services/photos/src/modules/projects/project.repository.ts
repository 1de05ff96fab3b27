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

/** GPS matching's candidates: `projects_matchable_team_id_latitude_longitude_index`'s predicate and a box. */
const MATCHING_CANDIDATES_SQL = `select * from "projects"
  where "team_id" = ? and "status" = 'active' and "latitude" is not null and "longitude" is not null
    and "latitude" >= ? and "latitude" <= ? and "longitude" >= ? and "longitude" <= ?
  order by "id"`;

/** A projects row as activeWithCoordinatesIn reads it (every column; these are the ones matching needs). */
export interface MatchableProjectRow extends Record<string, unknown> {
  id: number;
  latitude: number;
  longitude: number;
  radius_m: number;
}

export class ProjectRepository extends EntityRepository<Project> {
  /**
   * Active projects of the team with coordinates inside the box: the candidates of GPS matching, as rows (column names),
   * not entities: a dense area has dozens of candidates, and building an entity of each costs more than the query (the
   * caller maps the few it answers with, entityOf). Plain SQL (no query builder on this hot path) whose conditions
   * repeat the partial index's predicate, so the planner uses it; in the caller's transaction, if any.
   */
  async activeWithCoordinatesIn(teamId: number, box: LatLngBox): Promise<MatchableProjectRow[]> {
    return this.em.getConnection().execute<MatchableProjectRow[]>(
      MATCHING_CANDIDATES_SQL,
      [teamId, box.minLat, box.maxLat, box.minLng, box.maxLng],
      'all',
      this.em.getTransactionContext(),
    );
  }

  /** The entity of a row read by activeWithCoordinatesIn (the identity map's, if already loaded). */
  entityOf(row: MatchableProjectRow): Project {
    return this.em.map(this.entityName, row) as Project;
  }

  /** Every active project of the team, newest activity first, in one query (bootstrap). */
  async allActive(teamId: number): Promise<Project[]> {
    return this.find({ team: teamId, status: 'active' }, { populate: ['customer'], orderBy: { lastActivityAt: 'desc', id: 'desc' } });
  }

  /** The project an Idempotency-Key already used in the team made, if any. */
  findByIdempotencyKey(teamId: number, idempotencyKey: string): Promise<Project | null> {
    return this.findOne({ team: teamId, idempotencyKey }, { populate: ['customer'] });
  }

  /** Newest activity first; `q` matches name or address, case-insensitively. */
  async list(query: ProjectListQuery): Promise<{ items: Project[]; total: number }> {
    const where = {
      team: query.teamId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { $or: [{ name: { $ilike: `%${escapeLike(query.q)}%` } }, { address: { $ilike: `%${escapeLike(query.q)}%` } }] } : {}),
    };
    const [items, total] = await this.findAndCount(where, {
      populate: ['customer'],
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
