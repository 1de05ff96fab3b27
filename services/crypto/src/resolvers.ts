// Every module's resolvers as one map for the subgraph, merged type by type (each module's map is checked against the
// Resolvers generated from schema/subgraphs/crypto.graphql).
import { mergeResolvers } from '@tributary/kit';
import { accountResolvers } from './modules/accounts/index.js';
import { chainWatchResolvers } from './modules/chain-watch/index.js';
import { paymentRequestResolvers } from './modules/payment-requests/index.js';
import { paymentResolvers } from './modules/payments/index.js';
import { receiveAddressGapResolvers } from './modules/receive-addresses/index.js';
import { webhookDeliveryResolvers } from './modules/webhooks/index.js';

export const cryptoResolvers = mergeResolvers(accountResolvers, paymentRequestResolvers, paymentResolvers, webhookDeliveryResolvers, chainWatchResolvers, receiveAddressGapResolvers);
