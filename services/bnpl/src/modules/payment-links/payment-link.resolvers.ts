import type { Resolvers } from '../../graphql/resolvers-types.js';
import { paymentLinkPublicUrl } from './payment-link.presenter.js';

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents are PaymentLink entities); the same
// PaymentLinkService as REST, with the dashboard's credential.
export const paymentLinkResolvers = {
  BnplMerchant: {
    paymentLinks: async (_merchant, _args, ctx) => ctx.paymentLinks.list(await ctx.principal()),
  },
  BnplPaymentLink: {
    maxUses: (link) => link.maxUses ?? null,
    publicUrl: (link, _args, ctx) => paymentLinkPublicUrl(ctx.paymentLinks.publicBaseUrl, link),
    isRedeemable: (link) => link.isRedeemable(),
    createdAt: (link) => link.createdAt.toISOString(),
    updatedAt: (link) => link.updatedAt.toISOString(),
  },
  Mutation: {
    createBnplPaymentLink: async (_parent, { input }, ctx) => ctx.paymentLinks.create(await ctx.principal(), input),
    updateBnplPaymentLink: async (_parent, { id, input }, ctx) => ctx.paymentLinks.update(await ctx.principal(), id, input),
    deleteBnplPaymentLink: async (_parent, { id }, ctx) => {
      await ctx.paymentLinks.delete(await ctx.principal(), id);
      return id;
    },
  },
} satisfies Resolvers;
