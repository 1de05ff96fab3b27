import type { Resolvers } from '../../graphql/resolvers-types.js';
import { presentSettlement, presentSettlementWithLines } from './settlement.presenter.js';

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents are Settlement entities); the same
// SettlementService as REST, with the dashboard's credential.
export const settlementResolvers = {
  BnplMerchant: {
    settlements: async (_merchant, args, ctx) => ctx.settlements.list(await ctx.principal(), { page: args.page ?? undefined, limit: args.limit ?? undefined }),
  },
  BnplSettlement: {
    status: (settlement) => (settlement.status === 'paid' ? 'PAID' : 'PENDING'),
    periodEnd: (settlement) => presentSettlement(settlement).period_end,
    createdAt: (settlement) => settlement.createdAt.toISOString(),
    paidAt: (settlement) => settlement.paidAt?.toISOString() ?? null,
    lines: async (settlement, _args, ctx) => {
      const { sales, refunds, adjustments } = presentSettlementWithLines(settlement, await ctx.settlements.linesOf(settlement.id));
      return [
        ...sales.map((sale) => ({ kind: 'SALE' as const, loanId: sale.loan_id, refundId: null, adjustmentId: null, amountCents: sale.principal_cents, mdrCents: sale.mdr_cents })),
        ...refunds.map((refund) => ({ kind: 'REFUND' as const, loanId: refund.loan_id, refundId: refund.refund_id, adjustmentId: null, amountCents: -refund.amount_cents, mdrCents: 0 })),
        ...adjustments.map((adjustment) => ({ kind: 'ADJUSTMENT' as const, loanId: null, refundId: null, adjustmentId: adjustment.adjustment_id, amountCents: adjustment.amount_cents, mdrCents: 0 })),
      ];
    },
  },
} satisfies Resolvers;
