/**
 * The one place that names Temporal task queues, workflow ids and webhook retry schedules.
 * Services, workers and the stack import these; nothing else spells a queue name or a workflow id.
 */

/** Each service runs its own worker on its own task queue. */
export const TASK_QUEUES = {
  bnpl: 'bnpl',
  crypto: 'crypto',
  photos: 'photos',
} as const;

export type ServiceName = keyof typeof TASK_QUEUES;

export const SERVICE_NAMES = Object.keys(TASK_QUEUES) as ServiceName[];

/** Registered workflow type names (the exported function names in `src/workflows/`). */
export const WORKFLOW_TYPES = {
  webhookDelivery: 'webhookDeliveryWorkflow',
  invoiceExpiry: 'invoiceExpiryWorkflow',
  widgetSessionExpiry: 'widgetSessionExpiryWorkflow',
  photoMedia: 'photoMediaWorkflow',
  photosReport: 'photosReportWorkflow',
  refundProcessing: 'refundProcessingWorkflow',
  settlementCycle: 'settlementCycleWorkflow',
  settlementPayout: 'settlementPayoutWorkflow',
  testClockSettlements: 'testClockSettlementsWorkflow',
  loanLifecycle: 'loanLifecycleWorkflow',
  chainWatch: 'chainWatchWorkflow',
} as const;

/**
 * Workflow id of crypto's watcher of one chain (`chain-watch-<chain>`): one per chain, so every crypto worker can ask
 * for it at start and exactly one runs, and operators find it by the chain's name.
 */
export function chainWatchWorkflowId(chain: string): string {
  if (!chain) throw new Error('chainWatchWorkflowId: chain must not be empty');
  return `chain-watch-${chain}`;
}

/** Scans per run of the chain watch workflow: a scan and a timer are about ten history events, so a run stays well under Temporal's limits. */
export const CHAIN_WATCH_SCANS_PER_RUN = 500;

/** Signals the invoice expiry workflow accepts: either one ends it early, without expiring the invoice. */
export const INVOICE_SIGNALS = {
  /** The invoice was paid in full (paid or overpaid): it can no longer expire. */
  settled: 'settled',
  /** The merchant cancelled the invoice. */
  cancelled: 'cancelled',
} as const;

export type InvoiceSignalName = (typeof INVOICE_SIGNALS)[keyof typeof INVOICE_SIGNALS];

/** What names an invoice's expiry workflow: the payment request's internal id and its creation instant. */
export interface InvoiceWorkflowKey {
  /** The internal integer id (the merchant API's `{id}`), never the slug. */
  id: number;
  createdAt: Date;
}

/**
 * Workflow id of the expiry workflow of one crypto invoice (`invoice-<id>-<created at, epoch ms>`): one workflow per
 * invoice, so starting it twice is refused by Temporal and settle/cancel can signal it from the row alone. Never the
 * slug: it opens the payer view, and workflow ids show in the Temporal UI, its history, worker logs and traces. The
 * creation instant keeps ids of databases sharing one Temporal namespace apart (each numbers its requests from 1).
 */
export function invoiceWorkflowId(invoice: InvoiceWorkflowKey): string {
  if (!Number.isSafeInteger(invoice.id) || invoice.id < 1) throw new Error('invoiceWorkflowId: id must be the payment request\'s internal id (a positive integer)');
  const createdMs = invoice.createdAt instanceof Date ? invoice.createdAt.getTime() : Number.NaN;
  if (!Number.isFinite(createdMs)) throw new Error('invoiceWorkflowId: createdAt must be a valid date');
  return `invoice-${invoice.id}-${createdMs}`;
}

/**
 * Workflow id of the expiry workflow of an invoice open again after a reorg took back a payment that had settled it
 * (`<invoiceWorkflowId>-reopened-<block hash>`: the orphaned block makes each reopening's id its own, as the first
 * workflow ended when the invoice settled).
 */
export function invoiceReopenedWorkflowId(invoice: InvoiceWorkflowKey, orphanedBlockHash: string): string {
  if (!orphanedBlockHash) throw new Error('invoiceReopenedWorkflowId: orphanedBlockHash must not be empty');
  return `${invoiceWorkflowId(invoice)}-reopened-${orphanedBlockHash}`;
}

/** Signals the widget session expiry workflow accepts: either one ends it early, without expiring the session. */
export const WIDGET_SESSION_SIGNALS = {
  /** The shopper completed checkout: the session is authorized and can no longer expire. */
  authorized: 'authorized',
  /** The merchant cancelled the session. */
  cancelled: 'cancelled',
} as const;

export type WidgetSessionSignalName = (typeof WIDGET_SESSION_SIGNALS)[keyof typeof WIDGET_SESSION_SIGNALS];

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Workflow id of the expiry workflow of one bnpl widget session (`widget-session-<session id>`): one workflow per
 * session, so authorize and cancel can signal it by the session's id alone. Named by the id, never by the session
 * token: the token opens the shopper's checkout, and workflow ids show in the Temporal UI, its history and worker logs.
 */
export function widgetSessionWorkflowId(sessionId: string): string {
  if (!UUID_PATTERN.test(sessionId)) throw new Error('widgetSessionWorkflowId: sessionId must be the session\'s id (a UUID)');
  return `widget-session-${sessionId}`;
}

/** Workflow id of the processing workflow of one bnpl refund (`refund-<id>`): one run per refund. */
export function refundWorkflowId(refundId: string): string {
  if (!refundId) throw new Error('refundWorkflowId: refundId must not be empty');
  return `refund-${refundId}`;
}

/** Workflow id of the payout workflow of one bnpl settlement batch (`settlement-<id>`). */
export function settlementWorkflowId(settlementId: string): string {
  if (!settlementId) throw new Error('settlementWorkflowId: settlementId must not be empty');
  return `settlement-${settlementId}`;
}

/**
 * Id of the Temporal Schedule that cuts the settlements of every merchant on one cadence (`settlement-cycle-<cadence>`);
 * also the id prefix of the cycle workflows it starts (Temporal appends each run's scheduled time).
 */
export function settlementScheduleId(cadence: string): string {
  if (!cadence) throw new Error('settlementScheduleId: cadence must not be empty');
  return `settlement-cycle-${cadence}`;
}

/**
 * Workflow id of the settlement cuts one test clock advance owes (`test-clock-settlements-<merchant>-<clock ms>`): one
 * per advance, named by the clock's new time, so a replayed advance does not cut twice.
 */
export function testClockSettlementsWorkflowId(merchantId: string, clockMs: number): string {
  if (!merchantId) throw new Error('testClockSettlementsWorkflowId: merchantId must not be empty');
  return `test-clock-settlements-${merchantId}-${clockMs}`;
}

/** Signals the loan lifecycle workflow accepts. */
export const LOAN_SIGNALS = {
  /** An installment was paid outside the workflow (in-app payment): advance the loan now (it may be closed, or cured). */
  paymentReceived: 'paymentReceived',
  /** A test-mode loan's test clock moved: argument `{ offsetMs }`, the clock's total advance over real time. */
  clockAdvanced: 'clockAdvanced',
} as const;

export type LoanSignalName = (typeof LOAN_SIGNALS)[keyof typeof LOAN_SIGNALS];

/** Argument of the `clockAdvanced` signal. */
export interface ClockAdvancedSignalArgs {
  /** How far the test clock is ahead of real time, in ms (only ever grows). */
  offsetMs: number;
}

/**
 * Workflow id of the lifecycle workflow of one bnpl loan (`loan-<loan_number>`): one workflow per loan from
 * authorization to closing, so payments and test clocks can signal it by the loan number alone.
 */
export function loanWorkflowId(loanNumber: string): string {
  if (!loanNumber) throw new Error('loanWorkflowId: loanNumber must not be empty');
  return `loan-${loanNumber}`;
}

/** Workflow id of the media workflow of one photo (`photo-media-<photoId>`): one thumbnail/poster run per photo. */
export function photoMediaWorkflowId(photoId: number): string { return `photo-media-${photoId}`; }

/** Workflow id of the PDF rendering of one photos report (`report-<reportId>`): one run per report. */
export function photosReportWorkflowId(reportId: number): string {
  if (!Number.isInteger(reportId) || reportId < 1) throw new Error(`photosReportWorkflowId: reportId must be a positive integer, got ${reportId}`);
  return `report-${reportId}`;
}

/**
 * Workflow id of one webhook delivery: readable in the Temporal UI and stable, so starting the same
 * delivery twice is refused by Temporal instead of sending twice.
 * `deliveryNumber` counts the deliveries of one event (each endpoint and each manual re-fire gets the next number).
 */
export function webhookDeliveryWorkflowId(service: ServiceName, eventId: string, deliveryNumber: number): string {
  if (!eventId) throw new Error('webhookDeliveryWorkflowId: eventId must not be empty');
  if (!Number.isInteger(deliveryNumber) || deliveryNumber < 1) {
    throw new Error(`webhookDeliveryWorkflowId: deliveryNumber must be a positive integer, got ${deliveryNumber}`);
  }
  return `webhook-${service}-${eventId}-${deliveryNumber}`;
}

/**
 * A webhook retry schedule, as data.
 * `delaysMs[i]` is the wait before attempt i+1, counted from the end of the previous attempt;
 * `delaysMs[0]` is 0 (first attempt at once) and `delaysMs.length` is the total number of attempts.
 * After the last attempt fails the delivery is marked permanently failed.
 */
export interface WebhookSchedule {
  readonly name: string;
  readonly delaysMs: readonly number[];
  /** Time allowed for one attempt (DNS, connect, TLS, response headers). */
  readonly attemptTimeoutMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const WEBHOOK_SCHEDULES = {
  /** bnpl spec: at once, then retries after 1m, 5m, 15m, 30m, 1h, 2h, 4h, 8h (tail 15h51m); failed after the 8th retry; 15 s per attempt. */
  bnpl: {
    name: 'bnpl',
    delaysMs: [0, 1 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 1 * HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR],
    attemptTimeoutMs: 15 * SECOND,
  },
  /** crypto spec: six attempts, at once then after 1, 2, 4, 8, 16 minutes; 10 s per attempt. */
  crypto: {
    name: 'crypto',
    delaysMs: [0, 1 * MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 16 * MINUTE],
    attemptTimeoutMs: 10 * SECOND,
  },
  /**
   * photos (its spec leaves the schedule open; decided as Standard Webhooks' reference schedule): at once, then after
   * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (eight attempts over about 27.6 h); 15 s per attempt.
   */
  photos: {
    name: 'photos',
    delaysMs: [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
    attemptTimeoutMs: 15 * SECOND,
  },
} as const satisfies Record<string, WebhookSchedule>;

export type WebhookScheduleName = keyof typeof WEBHOOK_SCHEDULES;

/** Checks a schedule before it is handed to a workflow (a bad schedule would otherwise fail inside Temporal). */
export function assertValidWebhookSchedule(schedule: WebhookSchedule): void {
  const { delaysMs, attemptTimeoutMs } = schedule;
  if (delaysMs.length < 1) throw new Error(`webhook schedule ${schedule.name}: needs at least one attempt`);
  if (delaysMs.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error(`webhook schedule ${schedule.name}: delays must be non-negative integers (ms)`);
  }
  if (!Number.isInteger(attemptTimeoutMs) || attemptTimeoutMs <= 0) {
    throw new Error(`webhook schedule ${schedule.name}: attemptTimeoutMs must be a positive integer`);
  }
}
