// Crypto's webhook deliveries as merchants and operators read them (the spec's "recent deliveries and status codes are
// listed in the dashboard"): listing, the request a delivery is about, and the one way to re-send one. A merchant's
// reads are scoped to its own deliveries (the owner column); another account's delivery is NOT_FOUND like an unknown one.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  NotFoundError,
  ValidationError,
  WebhookDelivery,
  integerRangeMessage,
  redeliverWebhook,
  transactionWithAfterCommit,
  type DeliveryWithAttempts,
  type WorkflowOutbox,
} from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { deliveryOwnerId, paymentRequestEndpointId, paymentRequestIdOfEndpoint } from './payment-webhook-sink.js';

export const RECENT_DELIVERIES_DEFAULT = 50;
export const RECENT_DELIVERIES_MAX = 100;

/** Whose deliveries: one account's (a merchant) or, without an account, every account's (an operator). */
export interface DeliveryScope {
  accountId?: number | undefined;
}

export class WebhookDeliveryService {
  /** `outbox` dispatches a re-send's workflow right after its commit (the worker's sweeper when Temporal is down). */
  constructor(
    private readonly em: EntityManager,
    private readonly outbox?: WorkflowOutbox,
  ) {}

  /** The most recent deliveries in scope, newest first, with their attempts; `limit` 1..100. */
  async recent(scope: DeliveryScope, limit: number = RECENT_DELIVERIES_DEFAULT): Promise<DeliveryWithAttempts[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > RECENT_DELIVERIES_MAX) {
      throw new ValidationError({ limit: [integerRangeMessage(1, RECENT_DELIVERIES_MAX)] });
    }
    return this.em.getRepository(WebhookDelivery).recent({ service: SERVICE_NAME, ownerId: ownerOf(scope), limit });
  }

  /** A payment request's deliveries, oldest first (the caller already holds the request, so they are its own). */
  forPaymentRequest(paymentRequestId: number): Promise<DeliveryWithAttempts[]> {
    return this.em.getRepository(WebhookDelivery).forEndpoint(SERVICE_NAME, paymentRequestEndpointId(paymentRequestId));
  }

  /** Internal id of the payment request a delivery is about. */
  paymentRequestIdOf(delivery: WebhookDelivery): number | null {
    return paymentRequestIdOfEndpoint(delivery.endpointId);
  }

  /**
   * Re-sends a delivery in scope: a new delivery of the same event with the same body (same id, event and timestamp,
   * so a receiver that handled it sees a repeat; each attempt brings the request's state up to its moment), the next
   * delivery number, its own attempts, dispatched after the commit. Unknown and out-of-scope ids are the same NotFoundError.
   */
  async redeliver(deliveryId: string, scope: DeliveryScope = {}): Promise<DeliveryWithAttempts> {
    return transactionWithAfterCommit(this.em, async (tx) => {
      const original = await tx.getRepository(WebhookDelivery).findOwned(SERVICE_NAME, deliveryId, ownerOf(scope));
      if (!original) throw new NotFoundError(`No webhook delivery with id ${deliveryId}.`);
      const { delivery, outboxEntry } = await redeliverWebhook(tx, original);
      return { result: { delivery, attempts: [] }, afterCommit: this.outbox?.dispatchAfterCommit([outboxEntry]) };
    });
  }
}

function ownerOf(scope: DeliveryScope): string | undefined {
  return scope.accountId === undefined ? undefined : deliveryOwnerId(scope.accountId);
}
