import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { SESSION_STATUSES, type SessionState } from './session-status-engine.js';

/**
 * A checkout session a merchant backend created for a shopper's cart (spec "Widget session"). The session token is
 * the shopper's capability for the hosted checkout (it is in checkout_url), so it is random and stored as is.
 * `livemode` comes from the API key that created it (a test key makes test sessions and test loans).
 */
export const WidgetSessionSchema = defineEntity({
  name: 'WidgetSession',
  tableName: 'widget_sessions',
  uniques: [{ properties: ['merchant', 'idempotencyKey'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    token: p.string().length(64).unique(),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    livemode: p.boolean(),
    status: p.enum(SESSION_STATUSES),
    amountCents: p.integer(),
    currency: p.string().length(3),
    orderReference: p.string().length(191),
    customerEmail: p.string().length(254).nullable(),
    customerPhone: p.string().length(16).nullable(),
    purchaseDescription: p.string().length(500).nullable(),
    successUrl: p.string().length(2048),
    cancelUrl: p.string().length(2048),
    expiresAt: p.datetime(),
    authorizedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    idempotencyFingerprint: p.string().length(64).nullable(),
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
