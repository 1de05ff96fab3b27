// What the media parts of the service read from the config: upload limits, the media URL signing secret, and the
// upload route's non-JSON body.
import { secretsKeyOf, type OtherBodyRoute } from '@tributary/kit';
import { REST_BASE } from './api-paths.js';
import type { PhotosConfig } from './config.js';

/** Upload size limits of the installation (PHOTO_MAX_BYTES, VIDEO_MAX_BYTES): enforced on upload, told to the app by bootstrap. */
export interface UploadLimits {
  photoMaxBytes: number;
  videoMaxBytes: number;
}

/** POST /api/v1/photos reads its multipart body itself (streamed); every other body is JSON. */
export const PHOTO_UPLOAD_BODY_ROUTE: OtherBodyRoute = { path: `${REST_BASE}/photos`, mediaTypes: ['multipart/form-data'] };

export function uploadLimitsOf(config: Pick<PhotosConfig, 'PHOTO_MAX_BYTES' | 'VIDEO_MAX_BYTES'>): UploadLimits {
  return { photoMaxBytes: config.PHOTO_MAX_BYTES, videoMaxBytes: config.VIDEO_MAX_BYTES };
}

/** Media URLs are signed with a key derived from SECRETS_ENCRYPTION_KEY (the kit's fallback only in development and tests). */
export function mediaSigningSecret(config: Pick<PhotosConfig, 'NODE_ENV' | 'SECRETS_ENCRYPTION_KEY'>): string {
  return secretsKeyOf(config);
}
