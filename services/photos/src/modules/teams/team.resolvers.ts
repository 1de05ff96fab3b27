import type { Resolvers } from '../../graphql/resolvers-types.js';

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosTeam's parent is the Team entity).
export const teamResolvers = {
  Query: {
    photosTeam: async (_parent, _args, ctx) => ctx.teams.getTeam(await ctx.principal()),
  },
  PhotosTeam: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref, ctx) => ctx.teams.findVisibleTeam(await ctx.principal(), ref.id),
    id: (team) => String(team.id),
    createdAt: (team) => team.createdAt.toISOString(),
  },
} satisfies Resolvers;
