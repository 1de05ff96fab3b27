// What the checkout pages show, as data: the service decides which page a session gets, the view renders it.
import type { FieldErrors } from '@tributary/kit';
import type { Loan } from '../loans/index.js';
import { installmentSchedule, type InstallmentPlan, type InstallmentSchedule } from '../plans/index.js';
import type { WidgetSession } from '../widget-sessions/index.js';
import type { ShopperFormValues } from './checkout.validation.js';

/** The session as the shopper sees it (every page's header). */
export interface CheckoutSummary {
  token: string;
  merchantName: string;
  amountCents: number;
  currency: string;
  purchaseDescription: string | null;
  orderReference: string;
  successUrl: string;
  cancelUrl: string;
  livemode: boolean;
  expiresAt: Date;
}

/** A plan the page offers, with the schedule the loan would book today (in the session's mode: no fee in test mode). */
export interface PlanOffer {
  plan: InstallmentPlan;
  schedule: InstallmentSchedule;
}

/** Statuses in which a session shows no form, only why, and the way back to the merchant. */
/** Why a checkout cannot go on: the session's final or ineligible status, or its payment link sold its last use. */
export type ClosedStatus = 'ineligible' | 'expired' | 'cancelled' | 'sold_out';

export interface FormPage {
  kind: 'form';
  summary: CheckoutSummary;
  offers: PlanOffer[];
  values: ShopperFormValues;
  /** Field name → messages; empty on a fresh page. */
  errors: FieldErrors;
}

export interface ClosedPage {
  kind: 'closed';
  summary: CheckoutSummary;
  status: ClosedStatus;
}

export interface CompletedPage {
  kind: 'completed';
  summary: CheckoutSummary;
  /** The booked loan, installments loaded. */
  loan: Loan;
}

export type CheckoutPage = FormPage | ClosedPage | CompletedPage;

/** The summary of a session whose merchant is loaded. */
export function checkoutSummary(session: WidgetSession): CheckoutSummary {
  return {
    token: session.token,
    merchantName: session.merchant.name,
    amountCents: session.amountCents,
    currency: session.currency,
    purchaseDescription: session.purchaseDescription ?? null,
    orderReference: session.orderReference,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    livemode: session.livemode,
    expiresAt: session.expiresAt,
  };
}

export function planOffers(plans: readonly InstallmentPlan[], session: Pick<WidgetSession, 'amountCents' | 'livemode'>, today: Date): PlanOffer[] {
  return plans.map((plan) => ({ plan, schedule: installmentSchedule(plan, session.amountCents, today, session.livemode) }));
}

/** The form as first shown: the first plan chosen, e-mail and phone prefilled from the session. */
export function prefilledValues(session: Pick<WidgetSession, 'customerEmail' | 'customerPhone'>, offers: readonly PlanOffer[]): ShopperFormValues {
  return { planId: offers[0]?.plan.id ?? '', email: session.customerEmail ?? '', phone: session.customerPhone ?? '', termsAccepted: false };
}
