/**
 * Activity contracts: what workflows call. Implementations live with the services (built by factories with
 * injected dependencies, e.g. `createWebhookDeliveryActivities` in @tributary/kit); workflows import only these types.
 */

export interface WebhookAttemptInput {
  deliveryId: string;
  /** 1-based; (deliveryId, attemptNumber) identifies the attempt, so a retried activity never records twice. */
  attemptNumber: number;
  /** Time allowed for the HTTP exchange. */
  timeoutMs: number;
  /** Delay before the next attempt if this one fails, or null when this is the last attempt (for display only). */
  nextAttemptInMs: number | null;
}

export interface WebhookAttemptResult {
  attemptNumber: number;
  /** true when the endpoint answered 2xx. */
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** true when this result was already recorded by an earlier execution of the same attempt. */
  replayed: boolean;
}

export interface MarkWebhookFailedInput {
  deliveryId: string;
  attempts: number;
}

export interface WebhookDeliveryActivities {
  /**
   * One delivery attempt: load the stored body bytes, resolve the signing secret current now, check the URL
   * again (SSRF), send, and record the attempt in the owning service's database. Delivery failures (non-2xx,
   * timeout, refused destination) are results, not errors; a thrown error means infrastructure trouble and
   * the activity is retried.
   */
  deliverWebhookAttempt(input: WebhookAttemptInput): Promise<WebhookAttemptResult>;
  /** Marks the delivery permanently failed after its last attempt. Idempotent. */
  markWebhookDeliveryFailed(input: MarkWebhookFailedInput): Promise<void>;
}
