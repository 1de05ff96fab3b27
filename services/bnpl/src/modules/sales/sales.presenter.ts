// The sale resources: the list's summary (the spec's loan keys plus plan_id, fee_cents, livemode and timestamps) and
// the detail, which adds installments[] (with their stored status), the plan and the customer.
import type { z } from 'zod';
import type { Installment, Loan } from '../loans/index.js';
import { planById, presentAvailablePlan } from '../plans/index.js';
import type { saleDetailResource, saleInstallmentResource, saleResource, salesListResponse } from './sales.openapi.js';
import type { SalesPage } from './sales.service.js';

export function presentSale(loan: Loan): z.input<typeof saleResource> {
  return {
    loan_id: loan.id,
    loan_number: loan.loanNumber,
    merchant_id: loan.merchant.id,
    principal_cents: loan.principalCents,
    fee_cents: loan.feeCents,
    total_cents: loan.totalCents,
    currency: loan.currency,
    status: loan.status,
    purchase_reference: loan.purchaseReference,
    disbursed_at: loan.disbursedAt?.toISOString() ?? null,
    plan_id: loan.planId,
    livemode: loan.livemode,
    created_at: loan.createdAt.toISOString(),
    updated_at: loan.updatedAt.toISOString(),
  };
}

export function presentSalesPage(page: SalesPage): z.input<typeof salesListResponse> {
  return { data: page.loans.map(presentSale), next_cursor: page.nextCursor };
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
  return {
    ...presentSale(loan),
    installments: loan.installments.getItems().map(presentInstallment),
    plan: presentAvailablePlan(planById(loan.planId)),
    customer: { email: loan.customerEmail, phone: loan.customerPhone ?? null },
  };
}
