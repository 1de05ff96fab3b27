import type { BnplContext } from '../../graphql-context.js';
import type { ApiKey } from '../api-keys/api-key.entity.js';
import type { Merchant } from './merchant.entity.js';

export const merchantResolvers = {
  Query: {
    bnplMerchant: async (_parent: unknown, _args: unknown, ctx: BnplContext) =>
      ctx.merchants.getMerchant(await ctx.principal()),
  },
  BnplMerchant: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref: { id: string }, ctx: BnplContext) =>
      ctx.merchants.findVisibleMerchant(await ctx.principal(), ref.id),
    settlementCadence: (merchant: Merchant) => merchant.settlementCadence.toUpperCase(),
    createdAt: (merchant: Merchant) => merchant.createdAt.toISOString(),
    apiKeys: async (_merchant: Merchant, _args: unknown, ctx: BnplContext) => ctx.apiKeys.listActive(await ctx.principal()),
  },
  BnplApiKey: {
    createdAt: (key: ApiKey) => key.createdAt.toISOString(),
  },
};
