import type { ServiceName, WebhookSchedule } from './constants.js';

export interface WebhookDeliveryWorkflowInput {
  service: ServiceName;
  /** Id of the WebhookDelivery row in the owning service's database (holds event, body, endpoint, secret reference). */
  deliveryId: string;
  schedule: WebhookSchedule;
}

export interface WebhookDeliveryWorkflowResult {
  outcome: 'delivered' | 'failed';
  /** Number of attempts made. */
  attempts: number;
}

export interface InvoiceExpiryWorkflowInput {
  /** Internal id of the crypto payment request (the workflow id is `invoiceWorkflowId`); never its slug. */
  paymentRequestId: number;
  /** Deadline, ISO 8601: the workflow sleeps (durable timer, workflow time) until then. */
  expiresAt: string;
}

export interface InvoiceExpiryWorkflowResult {
  /** `expired`: the activity expired it; `settled` / `cancelled`: ended early by signal; `unchanged`: nothing to expire at the deadline. */
  outcome: 'expired' | 'settled' | 'cancelled' | 'unchanged';
  /** Stored status reported by the last activity call; null when ended by signal before the deadline. */
  status: string | null;
}

export interface WidgetSessionExpiryWorkflowInput {
  /** Id of the bnpl widget session (the workflow id is `widgetSessionWorkflowId(sessionId)`); never its token. */
  sessionId: string;
  /** Deadline, ISO 8601: the workflow sleeps (durable timer, workflow time) until then. */
  expiresAt: string;
}

export interface WidgetSessionExpiryWorkflowResult {
  /** `expired`: the activity expired it; `authorized` / `cancelled`: ended early by signal; `unchanged`: nothing to expire at the deadline. */
  outcome: 'expired' | 'authorized' | 'cancelled' | 'unchanged';
  /** Stored status reported by the last activity call; null when ended by signal before the deadline. */
  status: string | null;
}

export interface RefundProcessingWorkflowInput {
  /** Id of the bnpl refund (the workflow id is `refundWorkflowId(refundId)`). */
  refundId: string;
}

export interface RefundProcessingWorkflowResult {
  /** processed or failed (or `not_found` when the refund is gone). */
  status: string;
  failureReason: string | null;
}

export interface SettlementCycleWorkflowInput {
  /** daily, weekly or monthly: the merchants whose batches this run cuts. */
  cadence: string;
}

export interface SettlementCycleWorkflowResult {
  merchants: number;
  /** Batches cut by this run (their payout workflows are queued). */
  settlementIds: string[];
}

export interface TestClockSettlementsWorkflowInput {
  merchantId: string;
  /** The test clock's time before and after the advance, ISO 8601. */
  from: string;
  to: string;
}

export interface SettlementPayoutWorkflowInput {
  /** Id of the bnpl settlement (the workflow id is `settlementWorkflowId(settlementId)`). */
  settlementId: string;
}

export interface PhotoMediaWorkflowInput {
  /** Id of the uploaded photo or video (the workflow id is `photoMediaWorkflowId(photoId)`). */
  photoId: number;
}

export interface PhotoMediaWorkflowResult {
  /** `rendered`: renditions recorded; `gone`: the photo was deleted first; `failed`: recorded without renditions. */
  outcome: 'rendered' | 'gone' | 'failed';
  /** Why it failed: `unrenderable` (the media can never be rendered) or `gave_up` (retries exhausted); null otherwise. */
  reason: 'unrenderable' | 'gave_up' | null;
}

export interface PhotosReportWorkflowInput {
  /** Id of the photos report (the workflow id is `photosReportWorkflowId(reportId)`). */
  reportId: number;
}

export interface PhotosReportWorkflowResult {
  /** `rendered`: the PDF is stored; `gone`: the report was deleted first; `failed`: recorded as failed. */
  outcome: 'rendered' | 'gone' | 'failed';
  /** Why it failed (`unrenderable_media` or `gave_up`); null otherwise. */
  reason: 'unrenderable_media' | 'gave_up' | null;
}

export interface LoanLifecycleWorkflowInput {
  /** Id of the bnpl loan. */
  loanId: string;
  /** Its number (the workflow id is `loanWorkflowId(loanNumber)`). */
  loanNumber: string;
  /**
   * null for a live loan: the real clock (durable timers), `clockAdvanced` signals are ignored. For a test-mode loan,
   * its merchant's test clock offset over real time when the workflow starts; `clockAdvanced` signals raise it.
   */
  testClockOffsetMs: number | null;
}

export interface LoanLifecycleWorkflowResult {
  /** The loan's status when the workflow ended (a closed one: paid_off, written_off, cancelled; or `not_found`). */
  status: string;
  /** How many times the activity advanced the loan. */
  advances: number;
}

export interface ChainWatchWorkflowInput {
  chain: string;
  /** Wait between scans once the scan has reached the tip. */
  pollIntervalMs: number;
  /** Scans per run before continue-as-new bounds the history (default CHAIN_WATCH_SCANS_PER_RUN). */
  scansPerRun?: number;
}
