import type { Resolvers } from '../../graphql/resolvers-types.js';

// Typed by the Resolvers generated from schema/subgraphs/crypto.graphql (CryptoReceiveAddressGap is the plain
// ReceiveAddressGap, field for field).
export const receiveAddressGapResolvers = {
  CryptoAccount: {
    // The parent is the caller's own account (cryptoAccount, _entities resolve only that one).
    receiveAddressGaps: (account, _args, ctx) => ctx.receiveAddressGaps.forAccount(account.id),
  },
} satisfies Resolvers;
