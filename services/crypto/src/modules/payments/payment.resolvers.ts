import type { Resolvers } from '../../graphql/resolvers-types.js';

// Typed by the Resolvers generated from schema/subgraphs/crypto.graphql (CryptoPayment's parent is the Payment entity).
export const paymentResolvers = {
  CryptoPayment: {
    outputIndex: (payment) => payment.outputIndex,
    amount: (payment) => payment.amount.toString(),
    countedAt: (payment) => payment.countedAt?.toISOString() ?? null,
    receivedAt: (payment) => payment.createdAt.toISOString(),
    orphanedAt: (payment) => payment.orphanedAt?.toISOString() ?? null,
  },
} satisfies Resolvers;
