import { log, proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookAttemptResult, WebhookDeliveryActivities } from '../activities.js';
import type { WebhookDeliveryWorkflowInput, WebhookDeliveryWorkflowResult } from '../types.js';

/** Extra time the activity gets beyond the HTTP timeout: DB reads and writes around the request. */
const ACTIVITY_MARGIN_MS = 30_000;

/**
 * Delivers one webhook: attempts on the schedule, durable timers in between, ends delivered on any 2xx
 * or permanently failed after the last attempt. Every attempt is recorded by the activity.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryWorkflowInput): Promise<WebhookDeliveryWorkflowResult> {
  const { deliveryId, schedule } = input;
  const { deliverWebhookAttempt, markWebhookDeliveryFailed } = proxyActivities<WebhookDeliveryActivities>({
    startToCloseTimeout: schedule.attemptTimeoutMs + ACTIVITY_MARGIN_MS,
    // Only infrastructure errors (database down, secret store unreachable) throw; delivery failures are results.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  const attempts = schedule.delaysMs.length;
  for (let index = 0; index < attempts; index++) {
    const delay = schedule.delaysMs[index] ?? 0;
    if (delay > 0) await sleep(delay);
    const next = index + 1 < attempts ? (schedule.delaysMs[index + 1] ?? null) : null;
    const result: WebhookAttemptResult = await deliverWebhookAttempt({
      deliveryId,
      attemptNumber: index + 1,
      timeoutMs: schedule.attemptTimeoutMs,
      nextAttemptInMs: next,
    });
    if (result.delivered) {
      log.info('webhook delivered', { deliveryId, attempt: index + 1, statusCode: result.statusCode });
      return { outcome: 'delivered', attempts: index + 1 };
    }
    log.info('webhook attempt failed', { deliveryId, attempt: index + 1, statusCode: result.statusCode, error: result.error });
  }
  await markWebhookDeliveryFailed({ deliveryId, attempts });
  return { outcome: 'failed', attempts };
}
