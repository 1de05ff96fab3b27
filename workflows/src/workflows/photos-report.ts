import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { PhotosReportActivities } from '../activities.js';
import type { PhotosReportWorkflowInput, PhotosReportWorkflowResult } from '../types.js';

/** The photo media workflow's schedule: 2 s, 4 s, ... capped at 10 min, 20 attempts (about 2 h 20 min). */
export const PHOTOS_REPORT_RENDER_RETRY = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 20 } as const;

/** What the office reads when retries ran out (the cause is in the worker's log). */
export const REPORT_GAVE_UP_MESSAGE = 'Rendering failed repeatedly (storage or database unavailable); create the report again.';

/**
 * One workflow per report (id `report-<reportId>`), started after the report's create commits: one activity reads the
 * originals, renders the PDF, stores it and marks the report ready. A photo whose original can never be read fails it
 * at once (non-retryable); other failures are retried with backoff. Either way a report that ends without a PDF is
 * recorded as failed with its reason, so it never stays "rendering" forever.
 */
export async function photosReportWorkflow(input: PhotosReportWorkflowInput): Promise<PhotosReportWorkflowResult> {
  const { renderPhotosReport } = proxyActivities<PhotosReportActivities>({
    // Reading up to the report's photo limit of originals and encoding each at print size.
    startToCloseTimeout: '20 minutes',
    retry: PHOTOS_REPORT_RENDER_RETRY,
  });
  const { recordPhotosReportFailure } = proxyActivities<PhotosReportActivities>({
    startToCloseTimeout: '1 minute',
    // A single row update: retried until the database is back.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  try {
    const rendered = await renderPhotosReport({ reportId: input.reportId });
    return { outcome: rendered.outcome, reason: null };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const unrenderable = error.cause instanceof ApplicationFailure && error.cause.nonRetryable;
    const reason = unrenderable ? 'unrenderable_media' : 'gave_up';
    const message = unrenderable ? (error.cause?.message ?? error.message) : REPORT_GAVE_UP_MESSAGE;
    log.warn('photos report not rendered', { reportId: input.reportId, reason, error: error.cause?.message ?? error.message });
    await recordPhotosReportFailure({ reportId: input.reportId, reason, message });
    return { outcome: 'failed', reason };
  }
}
