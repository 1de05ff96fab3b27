// The checklist list's ids in one SQL statement (the filters are EXISTS over the items), so a page costs one query for
// the ids plus one per loaded relation, whatever the number of items.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChecklistStatusFilter } from './checklist.validation.js';

export interface ChecklistIdQuery {
  teamId: number;
  projectId?: number | undefined;
  status: ChecklistStatusFilter;
  assigneeId?: number | undefined;
  limit: number;
  offset: number;
}

const UNTICKED = 'exists (select 1 from checklist_items i where i.checklist_id = c.id and i.ticked_at is null)';

export async function listChecklistIds(em: EntityManager, query: ChecklistIdQuery): Promise<{ ids: number[]; total: number }> {
  const where = ['c.team_id = ?'];
  const params: unknown[] = [query.teamId];
  if (query.projectId !== undefined) {
    where.push('c.project_id = ?');
    params.push(query.projectId);
  }
  if (query.status === 'open') where.push(UNTICKED);
  if (query.status === 'done') where.push(`not ${UNTICKED}`);
  if (query.assigneeId !== undefined) {
    where.push('exists (select 1 from checklist_items a where a.checklist_id = c.id and a.assignee_id = ?)');
    params.push(query.assigneeId);
  }
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number; total: string }>>(
      `select c.id, count(*) over () as total from checklists c where ${where.join(' and ')} order by c.created_at desc, c.id desc limit ? offset ?`,
      [...params, query.limit, query.offset],
    );
  const total = rows.length > 0 ? Number(rows[0]!.total) : await countOnly(em, where, params);
  return { ids: rows.map((row) => Number(row.id)), total };
}

/** A page past the end has no rows to carry the window count: count separately. */
async function countOnly(em: EntityManager, where: string[], params: unknown[]): Promise<number> {
  const [row] = await em.getConnection().execute<Array<{ total: string }>>(`select count(*) as total from checklists c where ${where.join(' and ')}`, params);
  return Number(row?.total ?? 0);
}

/** Open checklists (some item unticked) of the team's active projects, newest first (bootstrap). */
export async function openChecklistIds(em: EntityManager, teamId: number): Promise<number[]> {
  const rows = await em
    .getConnection()
    .execute<Array<{ id: number }>>(
      `select c.id from checklists c join projects p on p.id = c.project_id where c.team_id = ? and p.status = 'active' and ${UNTICKED} order by c.created_at desc, c.id desc`,
      [teamId],
    );
  return rows.map((row) => Number(row.id));
}
