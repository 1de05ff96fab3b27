import type { CryptoContext } from '../../graphql-context.js';
import type { Account } from './account.entity.js';
import type { ApiKey } from './api-key.entity.js';

export const accountResolvers = {
  Query: {
    cryptoAccount: async (_parent: unknown, _args: unknown, ctx: CryptoContext) =>
      ctx.accounts.getAccount(await ctx.principal()),
  },
  CryptoAccount: {
    // _entities enforces authentication like every other field: no principal, no data.
    __resolveReference: async (ref: { id: string }, ctx: CryptoContext) =>
      ctx.accounts.findVisibleAccount(await ctx.principal(), ref.id),
    id: (account: Account) => String(account.id),
    status: (account: Account) => account.status.toUpperCase(),
    createdAt: (account: Account) => account.createdAt.toISOString(),
    apiKeys: (account: Account, _args: unknown, ctx: CryptoContext) => ctx.accounts.activeKeys(account),
  },
  CryptoApiKey: {
    createdAt: (key: ApiKey) => key.createdAt.toISOString(),
  },
};
