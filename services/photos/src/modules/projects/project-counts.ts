// The counts of GET /api/v1/projects/{project} as a port: each module that owns something a project holds (photos and
// videos, photo groups, open tasks, …) registers a source in service.ts, and the project answers with whatever its
// sources report, merged. So projects never import the modules that depend on them.

/** Counts keys the modules are planned to report ("counts present when their module is"; README Decisions table). */
export const PLANNED_PROJECT_COUNT_KEYS = ['photos', 'videos', 'photo_groups', 'open_tasks'] as const;

export interface ProjectCountSource {
  /**
   * The source's counts for one project of the team, keyed by their wire names (e.g. `{ photos: 3, videos: 1 }`).
   * Called only for a project the caller may see; one or two aggregate queries, never one per record.
   */
  countsFor(teamId: number, projectId: number): Promise<Record<string, number>>;
}

/**
 * Every source's counts in one object, in registration order (a key reported twice keeps the later source's). One
 * source after the other: they share the request's EntityManager.
 */
export async function mergedCounts(sources: readonly ProjectCountSource[], teamId: number, projectId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const source of sources) Object.assign(counts, await source.countsFor(teamId, projectId));
  return counts;
}
