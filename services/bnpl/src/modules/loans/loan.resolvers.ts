import { enumMapping } from '@tributary/kit';
import type { BnplInstallmentStatus, BnplLoanStatus, Resolvers } from '../../graphql/resolvers-types.js';
import type { InstallmentStatus } from './installment.entity.js';
import type { LoanStatus } from './loan-status.js';

const loanStatus = enumMapping<LoanStatus, BnplLoanStatus>({
  pending: 'PENDING',
  approved: 'APPROVED',
  funded: 'FUNDED',
  active: 'ACTIVE',
  paid_off: 'PAID_OFF',
  in_arrears: 'IN_ARREARS',
  defaulted: 'DEFAULTED',
  written_off: 'WRITTEN_OFF',
  cancelled: 'CANCELLED',
});

const installmentStatus = enumMapping<InstallmentStatus, BnplInstallmentStatus>({ pending: 'PENDING', paid: 'PAID', missed: 'MISSED' });

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (parents are the Loan and Installment entities).
export const loanResolvers = {
  BnplMerchant: {
    loans: async (_merchant, args, ctx) => ctx.loans.recent(await ctx.principal(), args.first ?? undefined),
  },
  BnplLoan: {
    status: (loan) => loanStatus(loan.status),
    customerPhone: (loan) => loan.customerPhone ?? null,
    disbursedAt: (loan) => loan.disbursedAt?.toISOString() ?? null,
    createdAt: (loan) => loan.createdAt.toISOString(),
    installments: (loan) => loan.installments.getItems(),
  },
  BnplInstallment: {
    paidAt: (installment) => installment.paidAt?.toISOString() ?? null,
    status: (installment) => installmentStatus(installment.status),
  },
} satisfies Resolvers;
