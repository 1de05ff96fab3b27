import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { SESSION_STATUSES, type SessionState } from './session-status-engine.js';
import { WidgetSessionRepository } from './widget-session.repository.js';
import { CUSTOMER_EMAIL_MAX, CUSTOMER_PHONE_MAX, ORDER_REFERENCE_MAX, PURCHASE_DESCRIPTION_MAX, REDIRECT_URL_MAX } from './widget-session.limits.js';

/**
 * A checkout session a merchant backend created for a shopper's cart (spec "Widget session"). The session token is
 * the shopper's capability for the hosted checkout (it is in checkout_url), so it is random and stored as is.
 * `livemode` comes from the API key that created it (a test key makes test sessions and test loans).
 */
export const WidgetSessionSchema = defineEntity({
  name: 'WidgetSession',
  tableName: 'widget_sessions',
  repository: () => WidgetSessionRepository,
  uniques: [{ properties: ['merchant', 'idempotencyKey'] }],
  indexes: [
    // The dashboard's recent sessions (GraphQL BnplMerchant.sessions).
    { properties: ['merchant', 'createdAt'] },
    // A payment link's open sessions, counted before each start (its cap).
    {
      name: 'widget_sessions_open_by_payment_link',
      expression: `create index "widget_sessions_open_by_payment_link" on "widget_sessions" ("payment_link_id", "expires_at") where "payment_link_id" is not null and "status" in ('initialized', 'eligible', 'ineligible')`,
    },
  ],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    token: p.string().length(64).unique(),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    livemode: p.boolean(),
    status: p.enum(SESSION_STATUSES),
    amountCents: p.integer(),
    currency: p.string().length(3),
    orderReference: p.string().length(ORDER_REFERENCE_MAX),
    customerEmail: p.string().length(CUSTOMER_EMAIL_MAX).nullable(),
    customerPhone: p.string().length(CUSTOMER_PHONE_MAX).nullable(),
    purchaseDescription: p.string().length(PURCHASE_DESCRIPTION_MAX).nullable(),
    successUrl: p.string().length(REDIRECT_URL_MAX),
    cancelUrl: p.string().length(REDIRECT_URL_MAX),
    expiresAt: p.datetime(),
    authorizedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    idempotencyFingerprint: p.string().length(64).nullable(),
    /**
     * The payment link whose public page started the session (its use is counted when checkout books the loan). A
     * plain id, not a relation: the payment-links module builds on this one, not the other way round; links are never
     * removed (deleted_at), so the id stays valid.
     */
    paymentLinkId: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class WidgetSession extends WidgetSessionSchema.class {
  toState(): SessionState {
    return { status: this.status, expiresAt: this.expiresAt };
  }

  applyState(state: SessionState): void {
    this.status = state.status;
  }
}
WidgetSessionSchema.setClass(WidgetSession);
