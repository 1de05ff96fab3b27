import type { PhotosContext } from '../../graphql-context.js';
import type { Team } from './team.entity.js';

export const teamResolvers = {
  Query: {
    photosTeam: async (_parent: unknown, _args: unknown, ctx: PhotosContext) => ctx.teams.getTeam(await ctx.principal()),
  },
  PhotosTeam: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref: { id: string }, ctx: PhotosContext) => ctx.teams.findVisibleTeam(await ctx.principal(), ref.id),
    id: (team: Team) => String(team.id),
    createdAt: (team: Team) => team.createdAt.toISOString(),
  },
};
