// Activities of the photo media workflow (contract: PhotoMediaActivities in @tributary/workflows), built by a factory
// with storage and the photo record injected, so the worker and the tests share one path.
import { tmpdir } from 'node:os';
import { ApplicationFailure } from '@temporalio/client';
import type { Logger } from '@tributary/kit';
import type { PhotoMediaActivities, RenderPhotoMediaResult } from '@tributary/workflows';
import type { MediaStorage } from '../storage/index.js';
import { UnrenderableMediaError } from './media-errors.js';
import { NO_RENDITIONS, type PhotoRenditionStore } from './photo-rendition-store.js';
import { renderMedia } from './render-media.js';

export interface PhotoMediaActivityDeps {
  /** Where originals are read and renditions stored (local or S3). */
  storage: MediaStorage;
  /** The photo record (the photos module's implementation). */
  renditions: PhotoRenditionStore;
  logger: Logger;
  /** Directory for temp copies of originals; the OS temp directory by default. */
  workDir?: string;
}

/** Failure type of media that can never be rendered (non-retryable: the workflow records the photo without renditions). */
export const UNRENDERABLE_MEDIA_FAILURE = 'UnrenderableMedia';

export function photoMediaActivities(deps: PhotoMediaActivityDeps): PhotoMediaActivities {
  const { storage, renditions, logger } = deps;
  const workDir = deps.workDir ?? tmpdir();
  return {
    async renderPhotoMedia({ photoId }): Promise<RenderPhotoMediaResult> {
      const photo = await renditions.load(photoId);
      if (!photo) return { outcome: 'gone', thumbKey: null, posterKey: null, durationSeconds: null };
      let rendered;
      try {
        rendered = await renderMedia(photoId, photo, { storage, workDir, logger });
      } catch (error) {
        if (!(error instanceof UnrenderableMediaError)) throw error;
        throw ApplicationFailure.create({ message: error.message, type: UNRENDERABLE_MEDIA_FAILURE, nonRetryable: true });
      }
      await renditions.saveRenditions(photoId, rendered);
      return { outcome: 'rendered', thumbKey: rendered.thumbKey, posterKey: rendered.posterKey, durationSeconds: rendered.durationSeconds };
    },

    async recordPhotoMediaFailure({ photoId, reason }): Promise<void> {
      if (!(await renditions.load(photoId))) return;
      logger.warn({ photoId, reason }, 'photo recorded without renditions');
      await renditions.saveRenditions(photoId, NO_RENDITIONS);
    },
  };
}
