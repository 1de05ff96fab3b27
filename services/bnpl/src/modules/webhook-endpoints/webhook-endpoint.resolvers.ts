import type { Resolvers } from '../../graphql/resolvers-types.js';

// Thin resolvers over WebhookEndpointService: the same rules and errors as the REST routes. Inputs are handed over in
// the REST spelling (url, events, is_active), so validation errors name the REST fields.
export const webhookEndpointResolvers = {
  Mutation: {
    createBnplWebhookEndpoint: async (_parent, { input }, ctx) =>
      ctx.webhookEndpoints.create(await ctx.principal(), { url: input.url, events: input.events, is_active: input.isActive ?? undefined }),
    updateBnplWebhookEndpoint: async (_parent, { id, input }, ctx) =>
      ctx.webhookEndpoints.update(await ctx.principal(), id, { url: input.url, events: input.events, is_active: input.isActive }),
    deleteBnplWebhookEndpoint: async (_parent, { id }, ctx) => {
      await ctx.webhookEndpoints.delete(await ctx.principal(), id);
      return id;
    },
  },
  BnplMerchant: {
    // The parent is the caller's own merchant (bnplMerchant, _entities), so these are its endpoints.
    webhookEndpoints: async (_merchant, _args, ctx) => ctx.webhookEndpoints.list(await ctx.principal()),
  },
  BnplWebhookEndpoint: {
    createdAt: (endpoint) => endpoint.createdAt.toISOString(),
    updatedAt: (endpoint) => endpoint.updatedAt.toISOString(),
  },
  BnplCreatedWebhookEndpoint: {
    webhookEndpoint: ({ endpoint }) => endpoint,
  },
} satisfies Resolvers;
