// The report's lifecycle (the spec leaves status values and transitions open; decided in the README). Pure.
//   queued     created; its rendering workflow (report-<id>) is queued in the create's transaction
//   rendering  the workflow's activity has started (a retry renders again: rendering → rendering)
//   ready      the PDF is stored; download_url is answered and the report may be shared
//   failed     a photo's original could never be read, or retries ran out; failure says why
// ready and failed are final: a report is not re-rendered (create another).

export const REPORT_STATUSES = ['queued', 'rendering', 'ready', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_FAILURE_REASONS = ['unrenderable_media', 'gave_up'] as const;
export type ReportFailureReason = (typeof REPORT_FAILURE_REASONS)[number];

const TRANSITIONS: Record<ReportStatus, readonly ReportStatus[]> = {
  queued: ['rendering', 'failed'],
  rendering: ['rendering', 'ready', 'failed'],
  ready: [],
  failed: [],
};

export function canTransition(from: ReportStatus, to: ReportStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Whether the status is final (nothing will change it again). */
export function isFinal(status: ReportStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** Only a rendered report has a PDF to download or share. */
export function hasPdf(status: ReportStatus): boolean {
  return status === 'ready';
}
