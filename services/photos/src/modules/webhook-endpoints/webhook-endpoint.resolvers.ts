import type { Resolvers } from '../../graphql/resolvers-types.js';
import { TEAM_ADMIN_ROLES } from '../auth/index.js';
import type { PhotosWebhookEvent } from './webhook-events.js';

// Thin resolvers over WebhookEndpointService: typed arguments in, the same rules and errors as the REST routes.
export const webhookEndpointResolvers = {
  Mutation: {
    createPhotosWebhookEndpoint: async (_parent, { input }, ctx) =>
      ctx.webhookEndpoints.create(await ctx.principalWithRole(...TEAM_ADMIN_ROLES), { url: input.url, events: input.events as PhotosWebhookEvent[], isActive: input.isActive ?? true }),
    updatePhotosWebhookEndpoint: async (_parent, { id, input }, ctx) =>
      ctx.webhookEndpoints.update(await ctx.principalWithRole(...TEAM_ADMIN_ROLES), id, {
        ...(input.url != null ? { url: input.url } : {}),
        ...(input.events != null ? { events: input.events as PhotosWebhookEvent[] } : {}),
        ...(input.isActive != null ? { isActive: input.isActive } : {}),
      }),
    deletePhotosWebhookEndpoint: async (_parent, { id }, ctx) => {
      await ctx.webhookEndpoints.delete(await ctx.principalWithRole(...TEAM_ADMIN_ROLES), id);
      return id;
    },
  },
  PhotosTeam: {
    // The parent is the caller's own team (photosTeam, _entities), so these are its endpoints.
    webhookEndpoints: async (_team, _args, ctx) => ctx.webhookEndpoints.list(await ctx.principalWithRole(...TEAM_ADMIN_ROLES)),
  },
  PhotosWebhookEndpoint: {
    createdAt: (endpoint) => endpoint.createdAt.toISOString(),
    updatedAt: (endpoint) => endpoint.updatedAt.toISOString(),
  },
  PhotosCreatedWebhookEndpoint: {
    webhookEndpoint: ({ endpoint }) => endpoint,
  },
} satisfies Resolvers;
