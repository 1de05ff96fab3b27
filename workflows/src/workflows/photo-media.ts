import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { PhotoMediaActivities } from '../activities.js';
import type { PhotoMediaWorkflowInput, PhotoMediaWorkflowResult } from '../types.js';

/**
 * Rendering retries with backoff 2 s, 4 s, ... capped at 10 min, 20 attempts in all (about 2 h 20 min): long enough to
 * ride out a storage or database outage, bounded so a photo is not left unprocessed forever.
 */
export const PHOTO_MEDIA_RENDER_RETRY = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 20 } as const;

/**
 * One workflow per uploaded photo or video (id `photo-media-<photoId>`), started after the upload commits so a slow
 * transcode never holds the request: one activity renders the thumbnail (photo) or the probe and poster (video) and
 * records them. Media that can never be rendered fails it at once (non-retryable); other failures are retried with
 * backoff. Either way, when rendering ends without renditions, the photo is recorded as processed without them, so it
 * reads correctly (no thumbnail) instead of waiting forever.
 */
export async function photoMediaWorkflow(input: PhotoMediaWorkflowInput): Promise<PhotoMediaWorkflowResult> {
  const { renderPhotoMedia } = proxyActivities<PhotoMediaActivities>({
    // Downloading a large video from storage and decoding one frame; the process timeout inside is 2 minutes.
    startToCloseTimeout: '10 minutes',
    retry: PHOTO_MEDIA_RENDER_RETRY,
  });
  const { recordPhotoMediaFailure } = proxyActivities<PhotoMediaActivities>({
    startToCloseTimeout: '1 minute',
    // A single row update: retried until the database is back.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  });

  try {
    const rendered = await renderPhotoMedia({ photoId: input.photoId });
    return { outcome: rendered.outcome, reason: null };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const reason = error.cause instanceof ApplicationFailure && error.cause.nonRetryable ? 'unrenderable' : 'gave_up';
    log.warn('photo media not rendered', { photoId: input.photoId, reason, error: error.cause?.message ?? error.message });
    await recordPhotoMediaFailure({ photoId: input.photoId, reason });
    return { outcome: 'failed', reason };
  }
}
