import type { Resolvers } from '../../graphql/resolvers-types.js';
import { dashboardMerchantId } from '../merchant-auth/index.js';

// The dashboard's API key changes in GraphQL, through the same ApiKeyService as REST. Like REST (whose routes are DT),
// they need a dashboard token: an API key pair cannot mint or revoke keys (FORBIDDEN). Reading keys stays open to both
// credentials (BnplMerchant.apiKeys).
export const apiKeyResolvers = {
  Mutation: {
    createBnplApiKey: async (_parent, { name, environment }, ctx) => {
      const principal = await ctx.principal();
      dashboardMerchantId(principal, 'API keys');
      return ctx.apiKeys.create(principal, { name, environment });
    },
    revokeBnplApiKey: async (_parent, { id }, ctx) => {
      const principal = await ctx.principal();
      dashboardMerchantId(principal, 'API keys');
      await ctx.apiKeys.revoke(principal, id);
      return id;
    },
  },
  BnplCreatedApiKey: {
    apiKey: (created) => created.key,
  },
} satisfies Resolvers;
