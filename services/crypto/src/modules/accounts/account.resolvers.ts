import { enumMapping } from '@tributary/kit';
import type { CryptoAccountStatus, Resolvers } from '../../graphql/resolvers-types.js';
import type { AccountStatus } from './account.entity.js';

const accountStatus = enumMapping<AccountStatus, CryptoAccountStatus>({ active: 'ACTIVE', suspended: 'SUSPENDED' });

// Typed by the Resolvers generated from schema/subgraphs/crypto.graphql (parents are the Account and ApiKey entities).
export const accountResolvers = {
  Query: {
    cryptoAccount: async (_parent, _args, ctx) => ctx.accounts.getAccount(await ctx.principal()),
  },
  CryptoAccount: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref, ctx) => ctx.accounts.findVisibleAccount(await ctx.principal(), ref.id),
    id: (account) => String(account.id),
    status: (account) => accountStatus(account.status),
    createdAt: (account) => account.createdAt.toISOString(),
    apiKeys: (account, _args, ctx) => ctx.accounts.activeKeys(account),
    // The parent is the caller's own account (cryptoAccount, _entities), so these are its deliveries.
    webhookDeliveries: async (_account, args, ctx) => ctx.webhookDeliveries.recent({ accountId: (await ctx.principal()).accountId }, args.limit ?? undefined),
  },
  CryptoApiKey: {
    createdAt: (key) => key.createdAt.toISOString(),
    lastUsedAt: (key) => key.lastUsedAt?.toISOString() ?? null,
  },
} satisfies Resolvers;
