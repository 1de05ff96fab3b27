// Prometheus metrics (prom-client): one registry per process, the `tributary_` metrics every seam of the kit records
// into, and prom-client's default process metrics. Every metric carries a `service` label (bnpl, crypto, photos,
// gateway) set by the seam that records it, so one process serving several services (the tests) stays readable.
// The names and what to watch are documented in the root README ("Operating Tributary").
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The one registry of this process; `/metrics` renders it. */
export const metricsRegistry = new Registry();

/** Prefix of every metric Tributary defines (prom-client's default process metrics keep their standard names). */
export const METRIC_PREFIX = 'tributary_';

/** The `route` label of a request no route matched (404s, refusals before routing): one value, never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The `service` label of what a caller recorded without naming its service (tests building parts by hand). */
export const UNNAMED_SERVICE = 'unnamed';

/** Seconds; from 5 ms (a cached read) to 10 s (the request timeout's order of magnitude). */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: `${METRIC_PREFIX}http_request_duration_seconds`,
  help: 'HTTP requests served, by route template (Express matched path) and status code; seconds until the response finished.',
  labelNames: ['service', 'method', 'route', 'status_code'] as const,
  buckets: HTTP_DURATION_BUCKETS,
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: `${METRIC_PREFIX}rate_limit_refusals_total`,
  help: 'Requests refused with 429 by a rate-limit bucket.',
  labelNames: ['service', 'bucket'] as const,
  registers: [metricsRegistry],
});

export const slowHashComparisons = new Counter({
  name: `${METRIC_PREFIX}slow_hash_comparisons_total`,
  help: 'bcrypt comparisons run (tens of milliseconds of CPU each), by purpose (password, api_key). Only a known credential or a login attempt costs one.',
  labelNames: ['service', 'purpose'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryAttempts = new Counter({
  name: `${METRIC_PREFIX}webhook_delivery_attempts_total`,
  help: 'Webhook delivery attempts sent, by outcome (delivered, failed) and attempt number (1 = first try).',
  labelNames: ['service', 'outcome', 'attempt'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveriesFailed = new Counter({
  name: `${METRIC_PREFIX}webhook_deliveries_failed_total`,
  help: 'Webhook deliveries given up after their last attempt (status failed).',
  labelNames: ['service'] as const,
  registers: [metricsRegistry],
});

export const workflowOutboxDispatches = new Counter({
  name: `${METRIC_PREFIX}workflow_outbox_dispatches_total`,
  help: 'Workflow starts and signals the outbox handed to Temporal, by kind (start, signal) and outcome (dispatched, failed).',
  labelNames: ['service', 'kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** What the pool gauges read from a pg Pool (pg-pool's public counters). */
export interface ObservedPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
  readonly ended?: boolean;
}

const pools = new Map<ObservedPool, string>();

/** Reports `pool` in the tributary_db_pool_* gauges under `service` until it is ended. */
export function observeDatabasePool(pool: ObservedPool, service: string): void {
  pools.set(pool, service);
}

function poolGauge(name: string, help: string, read: (pool: ObservedPool) => number): Gauge<'service'> {
  return new Gauge({
    name: `${METRIC_PREFIX}db_pool_${name}`,
    help,
    labelNames: ['service'] as const,
    registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const [pool, service] of pools) {
        if (pool.ended) pools.delete(pool);
        else this.inc({ service }, read(pool));
      }
    },
  });
}

poolGauge('connections', 'Open PostgreSQL connections in the pool (idle and in use).', (pool) => pool.totalCount);
poolGauge('idle_connections', 'Open PostgreSQL connections not in use.', (pool) => pool.idleCount);
poolGauge('waiting_clients', 'Queries waiting for a connection because every connection is in use.', (pool) => pool.waitingCount);
poolGauge('max_connections', 'Most connections the pool opens.', (pool) => pool.options.max ?? 0);

let processMetricsService: string | undefined;

/**
 * Starts prom-client's default process metrics (CPU, memory, event-loop lag, GC, handles) labelled with the first
 * service that asks: a process runs one service in production.
 */
export function collectProcessMetrics(service: string): void {
  if (processMetricsService !== undefined) return;
  processMetricsService = service;
  collectDefaultMetrics({ register: metricsRegistry, labels: { service } });
}
