// The merchant's view of its own webhook deliveries (the spec's "recent deliveries and status codes are listed in
// the dashboard"): listing, the request a delivery is about, and a re-send. Every read is scoped to the calling
// account; another account's delivery is NOT_FOUND like an unknown one.
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, type WebhookDelivery, type WebhookDispatcher } from '@tributary/kit';
import type { CryptoPrincipal } from '../accounts/account.service.js';
import { signingSecretRef } from '../accounts/signing-secret.js';
import { paymentRequestIdOfEndpoint } from './payment-webhook-sink.js';
import { WebhookDeliveryQueries, type DeliveryWithAttempts } from './webhook-delivery.queries.js';

export const RECENT_DELIVERIES_DEFAULT = 50;
export const RECENT_DELIVERIES_MAX = 100;

export class WebhookDeliveryService {
  private readonly queries: WebhookDeliveryQueries;

  /** `dispatcher` commits a re-sent delivery and starts its workflow (the worker's sweeper if Temporal is down). */
  constructor(
    em: EntityManager,
    private readonly dispatcher: WebhookDispatcher,
  ) {
    this.queries = new WebhookDeliveryQueries(em);
  }

  /** The caller's most recent deliveries, newest first, with their attempts. */
  async recent(principal: CryptoPrincipal, limit: number = RECENT_DELIVERIES_DEFAULT): Promise<DeliveryWithAttempts[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > RECENT_DELIVERIES_MAX) {
      throw new ValidationError({ limit: [`Must be an integer from 1 to ${RECENT_DELIVERIES_MAX}.`] });
    }
    return this.queries.recent({ accountId: principal.accountId, limit });
  }

  /** A payment request's deliveries, oldest first (the caller already holds the request, so they are its own). */
  forPaymentRequest(paymentRequestId: number): Promise<DeliveryWithAttempts[]> {
    return this.queries.forPaymentRequest(paymentRequestId);
  }

  /** Internal id of the payment request a delivery is about. */
  paymentRequestIdOf(delivery: WebhookDelivery): number | null {
    return paymentRequestIdOfEndpoint(delivery.endpointId);
  }

  /**
   * Re-sends one of the caller's deliveries: a new delivery of the same event with the same body bytes (same id,
   * event and timestamp, so a receiver that handled it sees a repeat), its own attempts, started after commit.
   */
  async redeliver(principal: CryptoPrincipal, deliveryId: string): Promise<DeliveryWithAttempts> {
    // Unknown (byId) and another account's answer the same NotFoundError.
    const original = await this.queries.byId(deliveryId);
    if (original.signingSecretRef !== signingSecretRef(principal.accountId)) throw new NotFoundError(`No webhook delivery ${deliveryId} for this account.`);
    return { delivery: await this.dispatcher.redeliver(original.id), attempts: [] };
  }
}
