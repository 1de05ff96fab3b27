// bnpl's webhook deliveries as merchants (GraphQL) and operators (admin commands) read them, and the one way to re-send
// one. A merchant's reads are scoped to its own deliveries (the owner column); another merchant's delivery is
// NOT_FOUND like an unknown one. Every attempt is recorded by the kit's delivery activities.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BusinessRuleError,
  NotFoundError,
  ValidationError,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  integerRangeMessage,
  redeliverWebhook,
  transactionWithAfterCommit,
  type DeliveryWithAttempts,
  type WorkflowOutbox,
} from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { WebhookEndpoint } from '../webhook-endpoints/index.js';
import { deliveryOwnerId } from './merchant-webhook-sink.js';

export const RECENT_DELIVERIES_DEFAULT = 50;
export const RECENT_DELIVERIES_MAX = 100;

/** Whose deliveries: one merchant's or, without a merchant, every merchant's (an operator). */
export interface DeliveryScope {
  merchantId?: string | undefined;
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

  /** One delivery in scope with its attempts; unknown and out-of-scope ids are the same NotFoundError. */
  async get(deliveryId: string, scope: DeliveryScope = {}): Promise<DeliveryWithAttempts> {
    const delivery = await this.em.getRepository(WebhookDelivery).findOwned(SERVICE_NAME, deliveryId, ownerOf(scope));
    if (!delivery) throw new NotFoundError(`No webhook delivery with id ${deliveryId}.`);
    const attempts = await this.em.find(WebhookDeliveryAttempt, { deliveryId: delivery.id }, { orderBy: { attemptNumber: 'asc' } });
    return { delivery, attempts };
  }

  /** An endpoint's deliveries, oldest first (the caller already holds the endpoint, so they are its merchant's). */
  forEndpoint(endpointId: string): Promise<DeliveryWithAttempts[]> {
    return this.em.getRepository(WebhookDelivery).forEndpoint(SERVICE_NAME, endpointId);
  }

  /**
   * Re-sends a delivery in scope: a new delivery of the same event with the same body bytes (same event, timestamp and
   * data, so a receiver that handled it sees a repeat), the next delivery number, its own attempts, dispatched after the
   * commit. It goes to the endpoint's CURRENT url (a merchant who fixed a wrong URL re-sends to the right one) and is
   * signed with its secret at send time. A deleted or inactive endpoint is refused (422 rule_violation); unknown and
   * out-of-scope ids are the same NotFoundError.
   */
  async redeliver(deliveryId: string, scope: DeliveryScope = {}): Promise<DeliveryWithAttempts> {
    return transactionWithAfterCommit(this.em, async (tx) => {
      const original = await tx.getRepository(WebhookDelivery).findOwned(SERVICE_NAME, deliveryId, ownerOf(scope));
      if (!original) throw new NotFoundError(`No webhook delivery with id ${deliveryId}.`);
      const endpoint = await receivingEndpoint(tx, original);
      const { delivery, outboxEntry } = await redeliverWebhook(tx, original, { endpointUrl: endpoint.url });
      return { result: { delivery, attempts: [] }, afterCommit: this.outbox?.dispatchAfterCommit([outboxEntry]) };
    });
  }
}

async function receivingEndpoint(tx: EntityManager, delivery: WebhookDelivery): Promise<WebhookEndpoint> {
  const endpoint = delivery.endpointId ? await tx.getRepository(WebhookEndpoint).findById(delivery.endpointId) : null;
  if (!endpoint) throw new BusinessRuleError('The webhook endpoint of this delivery was deleted; it cannot be re-sent.', undefined, { code: 'endpoint_deleted' });
  if (!endpoint.isActive) throw new BusinessRuleError('The webhook endpoint of this delivery is inactive; activate it to re-send.', undefined, { code: 'endpoint_inactive' });
  return endpoint;
}

function ownerOf(scope: DeliveryScope): string | undefined {
  return scope.merchantId === undefined ? undefined : deliveryOwnerId(scope.merchantId);
}
