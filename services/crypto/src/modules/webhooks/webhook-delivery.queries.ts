// Reading the crypto service's webhook deliveries (operator `deliveries`, GraphQL `PaymentRequest.webhookDeliveries`)
// and the operator's manual re-fire.
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, WebhookDelivery, WebhookDeliveryAttempt, type WebhookDispatcher } from '@tributary/kit';
import { signingSecretRef } from '../accounts/signing-secret.js';
import { WEBHOOK_SERVICE, paymentRequestEndpointId } from './payment-webhook-sink.js';

export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookDeliveryAttempt[];
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class WebhookDeliveryQueries {
  constructor(private readonly em: EntityManager) {}

  /** The most recent deliveries (newest first), optionally of one account, each with its attempts in order. */
  async recent(options: { accountId?: number; limit?: number } = {}): Promise<DeliveryWithAttempts[]> {
    const where = options.accountId === undefined ? { service: WEBHOOK_SERVICE } : { service: WEBHOOK_SERVICE, signingSecretRef: signingSecretRef(options.accountId) };
    const rows = await this.em.find(WebhookDelivery, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: options.limit ?? 50 });
    return this.withAttempts(rows);
  }

  /** A payment request's deliveries, oldest first, with their attempts. */
  async forPaymentRequest(paymentRequestId: number): Promise<DeliveryWithAttempts[]> {
    const rows = await this.em.find(WebhookDelivery, { service: WEBHOOK_SERVICE, endpointId: paymentRequestEndpointId(paymentRequestId) }, { orderBy: { createdAt: 'asc', deliveryNumber: 'asc' } });
    return this.withAttempts(rows);
  }

  async byId(id: string): Promise<WebhookDelivery> {
    const delivery = UUID_PATTERN.test(id) ? await this.em.findOne(WebhookDelivery, { id, service: WEBHOOK_SERVICE }) : null;
    if (!delivery) throw new NotFoundError(`No webhook delivery with id ${id}.`);
    return delivery;
  }

  private async withAttempts(rows: WebhookDelivery[]): Promise<DeliveryWithAttempts[]> {
    if (rows.length === 0) return [];
    const attempts = await this.em.find(WebhookDeliveryAttempt, { deliveryId: { $in: rows.map((row) => row.id) } }, { orderBy: { attemptNumber: 'asc' } });
    return rows.map((delivery) => ({ delivery, attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id) }));
  }
}

/**
 * Manual re-fire (operator `redeliver`): a new delivery of the same event with the same body bytes (same id+event
 * and timestamp, so a receiver that already handled it sees a repeat), committed, then its workflow started.
 */
export async function redeliverPaymentWebhook(em: EntityManager, dispatcher: WebhookDispatcher, deliveryId: string): Promise<WebhookDelivery> {
  await new WebhookDeliveryQueries(em).byId(deliveryId);
  return dispatcher.redeliver(deliveryId);
}

/** JSON view of a delivery (operator output, GraphQL). */
export function presentDelivery({ delivery, attempts }: DeliveryWithAttempts) {
  return {
    id: delivery.id,
    event: delivery.eventName,
    event_id: delivery.eventId,
    delivery_number: delivery.deliveryNumber,
    redelivery_of: delivery.redeliveryOf ?? null,
    endpoint_url: delivery.endpointUrl,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    last_status_code: delivery.lastStatusCode ?? null,
    workflow_id: delivery.workflowId,
    created_at: delivery.createdAt.toISOString(),
    completed_at: delivery.completedAt?.toISOString() ?? null,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attemptNumber,
      outcome: attempt.outcome,
      status_code: attempt.statusCode ?? null,
      error: attempt.error ?? null,
      attempted_at: attempt.attemptedAt.toISOString(),
      duration_ms: attempt.durationMs,
    })),
  };
}
