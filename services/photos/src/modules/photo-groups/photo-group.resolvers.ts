import { parseInput } from '@tributary/kit';
import type { Resolvers } from '../../graphql/resolvers-types.js';
import { photoGroupListArgs } from './photo-group.validation.js';

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosPhotoGroup's parent is the entity).
export const photoGroupResolvers = {
  PhotosTeam: {
    photoGroups: async (_team, args, ctx) => ctx.photoGroups.list(await ctx.principalWith('photos:read'), parseInput(photoGroupListArgs, args)),
  },
  PhotosPhotoGroup: {
    id: (group) => String(group.id),
    project: (group) => group.before.project ?? null,
    createdAt: (group) => group.createdAt.toISOString(),
  },
} satisfies Resolvers;
