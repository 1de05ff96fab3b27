import type { Resolvers } from '../../graphql/resolvers-types.js';

// Typed by the Resolvers generated from schema/subgraphs/crypto.graphql (CryptoChainWatcher's parent is ChainWatchStatus).
export const chainWatchResolvers = {
  Query: {
    // Any authenticated merchant may see it: chain health is the same for every account and names no account's data.
    cryptoChainWatchers: async (_parent, _args, ctx) => {
      await ctx.principal();
      return ctx.chainWatchers.statuses();
    },
  },
  CryptoChainWatcher: {
    updatedAt: (status) => status.updatedAt?.toISOString() ?? null,
  },
} satisfies Resolvers;
