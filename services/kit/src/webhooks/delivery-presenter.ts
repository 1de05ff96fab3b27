// A delivery as the operator commands print it (`<service> deliveries`): snake_case JSON with every attempt and its
// status code, and one line of text per delivery. Services add their own owner fields to the JSON.
import type { DeliveryWithAttempts } from './webhook-delivery.repository.js';

export function presentWebhookDelivery({ delivery, attempts }: DeliveryWithAttempts) {
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

export type WebhookDeliveryView = ReturnType<typeof presentWebhookDelivery>;

/**
 * `<id>  <event>  <status>  attempts n [200,error,…]  <created>  <url>`: the text output of the deliveries command;
 * `eventWidth` is the service's longest event name, so the columns line up.
 */
export function webhookDeliveryLine(view: WebhookDeliveryView, eventWidth: number): string {
  const codes = view.attempts.map((a) => (a.status_code === null ? (a.outcome === 'delivered' ? 'ok' : 'error') : String(a.status_code))).join(',');
  return `${view.id}  ${view.event.padEnd(eventWidth)} ${view.status.padEnd(10)} attempts ${view.attempt_count} [${codes}]  ${view.created_at}  ${view.endpoint_url}`;
}
