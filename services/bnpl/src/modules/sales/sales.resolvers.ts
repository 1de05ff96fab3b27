import type { BnplLoanStatus, Resolvers } from '../../graphql/resolvers-types.js';

/** The enum value's spec status: the enum is the spec's values upper-cased (loan.resolvers.ts). */
const specStatus = (status: BnplLoanStatus): string => status.toLowerCase();

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql; the same SalesService, filters and cursor as
// GET /api/v1/merchant/sales (the sales page's loans are BnplLoan, resolved by loan.resolvers.ts).
export const salesResolvers = {
  BnplMerchant: {
    sales: async (_merchant, args, ctx) => {
      const page = await ctx.sales.list(await ctx.principal(), { status: args.status?.map(specStatus), from: args.from, to: args.to, page: args.page, limit: args.limit });
      return { nodes: page.loans, nextCursor: page.nextCursor };
    },
  },
} satisfies Resolvers;
