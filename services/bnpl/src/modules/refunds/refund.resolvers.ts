import { enumMapping } from '@tributary/kit';
import type { BnplRefundStatus, Resolvers } from '../../graphql/resolvers-types.js';
import type { RefundStatus } from './refund-status-engine.js';

const refundStatus = enumMapping<RefundStatus, BnplRefundStatus>({ requested: 'REQUESTED', processing: 'PROCESSING', processed: 'PROCESSED', failed: 'FAILED' });

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents are Refund entities); the same
// RefundService as REST, with the dashboard's credential.
export const refundResolvers = {
  BnplMerchant: {
    refunds: async (_merchant, args, ctx) =>
      ctx.refunds.list(await ctx.principal(), {
        loanId: args.loanId ?? undefined,
        status: args.status?.map(refundStatus.fromGraphql),
        page: args.page ?? undefined,
        limit: args.limit ?? undefined,
      }),
  },
  BnplLoan: {
    refunds: (loan, _args, ctx) => ctx.refunds.ofLoan(loan.id),
  },
  BnplRefund: {
    loanId: (refund) => refund.loan.id,
    status: (refund) => refundStatus(refund.status),
    failureReason: (refund) => refund.failureReason ?? null,
    createdAt: (refund) => refund.createdAt.toISOString(),
    processedAt: (refund) => refund.processedAt?.toISOString() ?? null,
  },
  Mutation: {
    createBnplRefund: async (_parent, { loanId, amountCents, reason, idempotencyKey }, ctx) =>
      (await ctx.refunds.create(await ctx.principal(), { loanId, amountCents, reason }, { idempotencyKey: idempotencyKey ?? undefined })).refund,
  },
} satisfies Resolvers;
