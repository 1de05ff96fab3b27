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

export interface ExpireInvoiceInput {
  /** Internal id of the crypto payment request. */
  paymentRequestId: number;
}

export interface ExpireInvoiceResult {
  /**
   * - `expired`: this call stored `expired` and emitted payment.expired (through the service's event sink);
   * - `not_due`: still pending/partial and the deadline has not passed on the activity's clock (clock skew between
   *   the Temporal server and the worker, or a moved deadline): the workflow waits `expiresAt` again;
   * - `final`: nothing to do: already expired, settled (paid/overpaid), cancelled, or not an invoice.
   */
  outcome: 'expired' | 'not_due' | 'final';
  /** Stored status after the call. */
  status: string;
  /** The request's deadline (ISO 8601), null for a donation. */
  expiresAt: string | null;
}

export interface InvoiceExpiryActivities {
  /** Expires the invoice if it is due and not settled. Idempotent (row lock; a second call finds it expired: `final`). */
  expireInvoiceIfDue(input: ExpireInvoiceInput): Promise<ExpireInvoiceResult>;
}

export interface ExpireWidgetSessionInput {
  /** Id of the bnpl widget session. */
  sessionId: string;
}

export interface ExpireWidgetSessionResult {
  /**
   * - `expired`: this call stored `expired`;
   * - `not_due`: still open (initialized, eligible, ineligible) and the deadline has not passed on the activity's clock
   *   (clock skew between the Temporal server and the worker): the workflow waits for `expiresAt` again;
   * - `final`: nothing to do: already expired, authorized, cancelled, or the session is gone.
   */
  outcome: 'expired' | 'not_due' | 'final';
  /** Stored status after the call (`not_found` when the session is gone). */
  status: string;
  /** The session's deadline (ISO 8601); null when the session is gone. */
  expiresAt: string | null;
}

export interface WidgetSessionExpiryActivities {
  /** Expires the session if it is still open and due. Idempotent (row lock; a second call finds it expired: `final`). */
  expireWidgetSessionIfDue(input: ExpireWidgetSessionInput): Promise<ExpireWidgetSessionResult>;
}

export interface RefundStepInput {
  /** Id of the bnpl refund. */
  refundId: string;
}

export interface RefundStepResult {
  /** Stored status after the step (`not_found` when the refund is gone). */
  status: string;
  /** Why a failed refund failed; null otherwise. */
  failureReason: string | null;
}

export interface RefundProcessingActivities {
  /** requested → processing. Idempotent: a refund already past requested is returned as it is. */
  beginRefundProcessing(input: RefundStepInput): Promise<RefundStepResult>;
  /**
   * Asks the payment processor to return the money and stores processed (reducing what the shopper owes) or failed.
   * Idempotent: a refund already processed or failed is returned as it is.
   */
  completeRefund(input: RefundStepInput): Promise<RefundStepResult>;
}

export interface CutSettlementsInput {
  merchantId: string;
  /** ISO 8601: the cut's moment (the schedule's fire time); the period closed is the last complete one before it. */
  at: string;
}

export interface TestClockSettlementsInput {
  merchantId: string;
  /** The test clock's time before and after the advance, ISO 8601. */
  from: string;
  to: string;
}

export interface SettlementActivities {
  /** Ids of the merchants whose settlement cadence is `cadence`. */
  merchantsOnCadence(input: { cadence: string }): Promise<string[]>;
  /**
   * Cuts the merchant's batches for the period closed at `at` (one per currency and mode with anything to settle) and
   * queues each batch's payout workflow. Idempotent: a period already cut is not cut again.
   */
  cutSettlements(input: CutSettlementsInput): Promise<{ settlementIds: string[] }>;
  /** Pays the batch out: pending → paid and settlement.processed, in one transaction. Idempotent. */
  payOutSettlement(input: { settlementId: string }): Promise<{ status: string }>;
  /** Cuts the merchant's test-mode batches of every period its test clock passed from `from` to `to` (ISO 8601). */
  cutTestClockSettlements(input: TestClockSettlementsInput): Promise<{ settlementIds: string[] }>;
}

export interface RenderPhotoMediaInput {
  /** Id of the photo (or video) whose thumbnail or poster to render. */
  photoId: number;
}

export interface RenderPhotoMediaResult {
  /** `rendered`: renditions stored and recorded on the photo; `gone`: the photo no longer exists, nothing to do. */
  outcome: 'rendered' | 'gone';
  /** Storage keys of what was stored (null when not applicable: a photo has no poster, a video no thumbnail). */
  thumbKey: string | null;
  posterKey: string | null;
  durationSeconds: number | null;
}

export interface RecordPhotoMediaFailureInput {
  photoId: number;
  /** Why there are no renditions (for the log). */
  reason: string;
}

export interface PhotoMediaActivities {
  /**
   * Reads the original from storage, renders the thumbnail (photo) or the probe and poster (video), stores them next to
   * the original and records them on the photo. Idempotent: a retry overwrites the same keys. Media that can never be
   * rendered (corrupt, truncated, a codec the bundled decoders lack) fails with a non-retryable ApplicationFailure;
   * anything else (storage or database down) throws and is retried.
   */
  renderPhotoMedia(input: RenderPhotoMediaInput): Promise<RenderPhotoMediaResult>;
  /** Records that the photo has no renditions and never will, so it reads as processed without them. Idempotent. */
  recordPhotoMediaFailure(input: RecordPhotoMediaFailureInput): Promise<void>;
}

export interface RenderPhotosReportInput {
  /** Id of the photos report to render (the workflow id is `photosReportWorkflowId(reportId)`). */
  reportId: number;
}

export interface RenderPhotosReportResult {
  /** `rendered`: the PDF is stored and the report ready; `gone`: the report no longer exists, nothing to do. */
  outcome: 'rendered' | 'gone';
  /** SHA-256 (hex) of the stored PDF; null when gone. */
  pdfSha256: string | null;
  pageCount: number | null;
}

export interface RecordPhotosReportFailureInput {
  reportId: number;
  /** `unrenderable_media`: a photo's original can never be read; `gave_up`: retries exhausted. */
  reason: 'unrenderable_media' | 'gave_up';
  /** What went wrong, for the office (the non-retryable failure's message, or a fixed text after retries). */
  message: string;
}

export interface PhotosReportActivities {
  /**
   * Marks the report rendering, reads each photo's original from storage (hashing it for the manifest), renders the
   * PDF, stores it and marks the report ready. Idempotent: a retry re-renders to the same key; a report already ready
   * is answered as rendered. A photo whose original is missing fails with a non-retryable ApplicationFailure; anything
   * else (storage or database down) throws and is retried.
   */
  renderPhotosReport(input: RenderPhotosReportInput): Promise<RenderPhotosReportResult>;
  /** Records the report as failed with the reason. Idempotent; a report already ready is left alone. */
  recordPhotosReportFailure(input: RecordPhotosReportFailureInput): Promise<void>;
}

export interface AdvanceLoanInput {
  /** Id of the bnpl loan. */
  loanId: string;
  /** Its number (the workflow id is `loanWorkflowId(loanNumber)`; for logs). */
  loanNumber: string;
  /**
   * The loan's clock now, ISO 8601: workflow time for a live loan, workflow time plus its test clock's offset for a
   * test-mode loan. Everything due at or before it is done, each step at its own scheduled time.
   */
  at: string;
}

export interface AdvanceLoanResult {
  /** Stored loan status after the call (`not_found` when the loan is gone). */
  status: string;
  /** When (on the loan's clock, ISO 8601) the next step falls due; null when the loan is closed (nothing will ever happen). */
  nextAt: string | null;
  /** What this call did, in order (e.g. `funded`, `installment 1 paid`), for logs and tests. */
  steps: string[];
  /**
   * A test-mode loan's test clock offset as stored when the call ended (ms; null for a live loan). The workflow moves
   * its clock up to it, so an advance whose signal was lost (the workflow was not started yet) still reaches the loan.
   */
  testClockOffsetMs: number | null;
}

export interface LoanLifecycleActivities {
  /**
   * Performs every lifecycle step of the loan due at `at`, in time order, each in its own transaction with its webhook
   * event (fund, auto-debit attempts, missed installments, default, write-off). Idempotent: the steps are read from
   * the stored loan, so a retried call does only what is still due.
   */
  advanceLoan(input: AdvanceLoanInput): Promise<AdvanceLoanResult>;
}

export interface ScanChainInput {
  /** The chain to scan (crypto's chain name: bitcoin, litecoin, ethereum, polygon). */
  chain: string;
}

export interface ScanChainResult {
  /** Last block scanned before and after the scan, and the node's tip. */
  fromHeight: number;
  toHeight: number;
  tipHeight: number;
  /** Transfers to requests found in the new blocks. */
  found: number;
  /** Set when the scan undid a reorg: the last block both branches share. */
  forkHeight?: number;
}

export interface ChainWatchActivities {
  /**
   * One scan of the chain from its stored cursor (crypto's ChainWatcher): at most a bounded number of blocks, with a
   * heartbeat per block. A node that is down or answers garbage throws (the error is recorded on the chain's cursor
   * first) and the activity is retried with backoff; the cursor makes a retry resume where the last one stopped.
   */
  scanChain(input: ScanChainInput): Promise<ScanChainResult>;
}
