import { defineEntity, p, type Collection } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { PLAN_IDS } from '../plans/index.js';
import { WidgetSession } from '../widget-sessions/index.js';
import { Installment } from './installment.entity.js';
import type { LoanState } from './loan-status-engine.js';
import { LOAN_STATUSES } from './loan-status.js';
import { PAYMENT_METHOD_MAX, TEST_PAYMENT_METHODS } from './payment-processor.js';
import { LoanRepository } from './loan.repository.js';

/**
 * A sale: the loan booked when a shopper completes checkout (spec "Sale (loan)"). principal_cents is the cart amount
 * the merchant sold; total_cents adds the plan's shopper fee; the installments add up exactly to total_cents.
 * purchase_reference is the session's order_reference. The customer is the shopper as entered at checkout.
 */
export const LoanSchema = defineEntity({
  name: 'Loan',
  tableName: 'loans',
  repository: () => LoanRepository,
  indexes: [{ properties: ['merchant', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    loanNumber: p.string().length(14).unique(),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    session: () => p.oneToOne(WidgetSession).owner().unique().deleteRule('cascade'),
    livemode: p.boolean(),
    status: p.enum(LOAN_STATUSES),
    planId: p.enum(PLAN_IDS),
    principalCents: p.integer(),
    feeCents: p.integer(),
    totalCents: p.integer(),
    currency: p.string().length(3),
    purchaseReference: p.string().length(191),
    customerEmail: p.string().length(254),
    customerPhone: p.string().length(16).nullable(),
    disbursedAt: p.datetime().nullable(),
    /**
     * The shopper's payment method as the payment processor knows it (README "Test payment methods"); checkout always
     * sets it, the default only serves loans created without checkout (fixtures).
     */
    paymentMethod: p.string().length(PAYMENT_METHOD_MAX).default(TEST_PAYMENT_METHODS.success),
    /** When the loan went into arrears (its default deadline counts from it); null when not in arrears. */
    arrearsSince: p.datetime().nullable(),
    defaultedAt: p.datetime().nullable(),
    installments: () => p.oneToMany(Installment).mappedBy('loan').orderBy({ installmentNumber: 'asc' }),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Loan extends LoanSchema.class {
  toState(): LoanState {
    return { status: this.status, disbursedAt: this.disbursedAt ?? null, arrearsSince: this.arrearsSince ?? null, defaultedAt: this.defaultedAt ?? null };
  }

  applyState(state: LoanState): void {
    this.status = state.status;
    this.disbursedAt = state.disbursedAt;
    this.arrearsSince = state.arrearsSince;
    this.defaultedAt = state.defaultedAt;
  }
}
LoanSchema.setClass(Loan);

export type LoanInstallments = Collection<Installment>;
