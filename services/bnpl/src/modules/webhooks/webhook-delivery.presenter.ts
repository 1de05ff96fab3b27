// A delivery as the operator commands print it (`bnpl deliveries --json`): snake_case, every attempt with its status code.
import type { DeliveryWithAttempts } from '@tributary/kit';

export function presentDelivery({ delivery, attempts }: DeliveryWithAttempts) {
  return {
    id: delivery.id,
    event: delivery.eventName,
    event_id: delivery.eventId,
    delivery_number: delivery.deliveryNumber,
    redelivery_of: delivery.redeliveryOf ?? null,
    merchant_id: delivery.ownerId ?? null,
    webhook_endpoint_id: delivery.endpointId ?? null,
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
