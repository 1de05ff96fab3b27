import { enumMapping } from '@tributary/kit';
import type { BnplSettlementCadence, Resolvers } from '../../graphql/resolvers-types.js';
import type { SettlementCadence } from './merchant.entity.js';

const settlementCadence = enumMapping<SettlementCadence, BnplSettlementCadence>({ daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY' });

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents are the Merchant and ApiKey entities).
export const merchantResolvers = {
  Query: {
    bnplMerchant: async (_parent, _args, ctx) => ctx.merchants.getMerchant(await ctx.principal()),
  },
  BnplMerchant: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref, ctx) => ctx.merchants.findVisibleMerchant(await ctx.principal(), ref.id),
    settlementCadence: (merchant) => settlementCadence(merchant.settlementCadence),
    createdAt: (merchant) => merchant.createdAt.toISOString(),
    apiKeys: async (_merchant, _args, ctx) => ctx.apiKeys.listActive(await ctx.principal()),
  },
  BnplApiKey: {
    createdAt: (key) => key.createdAt.toISOString(),
  },
} satisfies Resolvers;
