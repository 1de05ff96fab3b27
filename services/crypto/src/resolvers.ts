// Every module's resolvers as one map for the subgraph (typed by the generated Resolvers).
import type { Resolvers } from './graphql/resolvers-types.js';
import { accountResolvers } from './modules/accounts/account.resolvers.js';
import { paymentRequestResolvers } from './modules/payment-requests/payment-request.resolvers.js';

export const cryptoResolvers = {
  ...accountResolvers,
  ...paymentRequestResolvers,
  Query: { ...accountResolvers.Query, ...paymentRequestResolvers.Query },
} satisfies Resolvers;
