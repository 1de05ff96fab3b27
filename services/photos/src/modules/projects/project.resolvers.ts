import { enumMapping } from '@tributary/kit';
import type { PhotosProjectStatus, Resolvers } from '../../graphql/resolvers-types.js';
import type { ProjectStatus } from './project.entity.js';

const projectStatus = enumMapping<ProjectStatus, PhotosProjectStatus>({ active: 'ACTIVE', archived: 'ARCHIVED' });

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosProject's parent is the Project entity).
export const projectResolvers = {
  Query: {
    photosProjects: async (_parent, _args, ctx) => (await ctx.projects.list(await ctx.principalWith('projects:read'), {})).items,
  },
  PhotosProject: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref, ctx) => ctx.projects.findVisibleProject(await ctx.principalWith('projects:read'), ref.id),
    id: (project) => String(project.id),
    status: (project) => projectStatus(project.status),
    address: (project) => project.address ?? null,
    coordinates: (project) => project.coordinates(),
    team: async (_project, _args, ctx) => ctx.teams.getTeam(await ctx.principal()),
    createdAt: (project) => project.createdAt.toISOString(),
    lastActivityAt: (project) => project.lastActivityAt.toISOString(),
  },
} satisfies Resolvers;
