import type { PhotosContext } from '../../graphql-context.js';
import type { Project } from './project.entity.js';

export const projectResolvers = {
  Query: {
    photosProjects: async (_parent: unknown, _args: unknown, ctx: PhotosContext) =>
      (await ctx.projects.list(await ctx.principal(), {})).items,
  },
  PhotosProject: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref: { id: string }, ctx: PhotosContext) =>
      ctx.projects.findVisibleProject(await ctx.principal(), ref.id),
    id: (project: Project) => String(project.id),
    status: (project: Project) => project.status.toUpperCase(),
    address: (project: Project) => project.address ?? null,
    coordinates: (project: Project) => project.coordinates(),
    team: async (_project: Project, _args: unknown, ctx: PhotosContext) => ctx.teams.getTeam(await ctx.principal()),
    createdAt: (project: Project) => project.createdAt.toISOString(),
    lastActivityAt: (project: Project) => project.lastActivityAt.toISOString(),
  },
};
