/**
 * How many identical creates with one Idempotency-Key the services' tests send at once (issue 13 §3: a client's
 * retries racing each other, and the pool's connections with them): exactly one resource must come of them.
 */
export const IDEMPOTENT_RETRY_BURST = 100;
