// The sale resources: the list's summary (the spec's loan keys plus plan_id, fee_cents, livemode and timestamps) and
// the detail, which adds installments[] (with their stored status), the plan (with the sale's fee rate) and the customer.
import type { z } from 'zod';
import type { Installment, Loan, LoanStatus } from '../loans/index.js';
import { loanFeeBps, planById, presentAvailablePlan, type PlanId } from '../plans/index.js';
import type { saleDetailResource, saleInstallmentResource, saleResource, salesListResponse } from './sales.openapi.js';
import type { SaleViewPage } from './sales.service.js';

/** What a sale's summary shows: taken from a Loan (saleViewOf) or read as such by the list (salesPageViews). */
export interface SaleView {
  id: string;
  loanNumber: string;
  merchantId: string;
  principalCents: number;
  feeCents: number;
  totalCents: number;
  currency: string;
  status: LoanStatus;
  purchaseReference: string;
  /** ISO 8601 UTC with milliseconds, as the API shows it (toISOString, or PostgreSQL's to_char of the same format). */
  disbursedAt: string | null;
  planId: PlanId;
  livemode: boolean;
  createdAt: string;
  updatedAt: string;
}

export function saleViewOf(loan: Loan): SaleView {
  return {
    id: loan.id,
    loanNumber: loan.loanNumber,
    merchantId: loan.merchant.id,
    principalCents: loan.principalCents,
    feeCents: loan.feeCents,
    totalCents: loan.totalCents,
    currency: loan.currency,
    status: loan.status,
    purchaseReference: loan.purchaseReference,
    disbursedAt: loan.disbursedAt?.toISOString() ?? null,
    planId: loan.planId,
    livemode: loan.livemode,
    createdAt: loan.createdAt.toISOString(),
    updatedAt: loan.updatedAt.toISOString(),
  };
}

export function presentSale(sale: SaleView): z.input<typeof saleResource> {
  return {
    loan_id: sale.id,
    loan_number: sale.loanNumber,
    merchant_id: sale.merchantId,
    principal_cents: sale.principalCents,
    fee_cents: sale.feeCents,
    total_cents: sale.totalCents,
    currency: sale.currency,
    status: sale.status,
    purchase_reference: sale.purchaseReference,
    disbursed_at: sale.disbursedAt,
    plan_id: sale.planId,
    livemode: sale.livemode,
    created_at: sale.createdAt,
    updated_at: sale.updatedAt,
  };
}

export function presentSalesPage(page: SaleViewPage): z.input<typeof salesListResponse> {
  return { data: page.sales.map(presentSale), next_cursor: page.nextCursor };
}

function presentInstallment(installment: Installment): z.input<typeof saleInstallmentResource> {
  return {
    installment_id: installment.id,
    installment_number: installment.installmentNumber,
    amount_cents: installment.amountCents,
    due_date: installment.dueDate,
    paid_at: installment.paidAt?.toISOString() ?? null,
    status: installment.status,
  };
}

export function presentSaleDetail(loan: Loan): z.input<typeof saleDetailResource> {
  const plan = planById(loan.planId);
  return {
    ...presentSale(saleViewOf(loan)),
    installments: loan.installments.getItems().map(presentInstallment),
    // The fee rate this sale carries: a test-mode sale shows none, as its fee_cents.
    plan: { ...presentAvailablePlan(plan), fee_bps: loanFeeBps(plan, loan.livemode) },
    customer: { email: loan.customerEmail, phone: loan.customerPhone ?? null },
  };
}
