// What the media parts of the service read from the config: upload limits, the public base of signed media URLs, the
// media URL signing secret, and the upload route's non-JSON body.
import { DEV_SECRETS_ENCRYPTION_KEY, type OtherBodyRoute } from '@tributary/kit';
import { REST_BASE } from './api-paths.js';
import type { PhotosConfig } from './config.js';
import type { UploadLimits } from './modules/photos/index.js';

/** POST /api/v1/photos reads its multipart body itself (streamed); every other body is JSON. */
export const PHOTO_UPLOAD_BODY_ROUTE: OtherBodyRoute = { path: `${REST_BASE}/photos`, mediaTypes: ['multipart/form-data'] };

export function uploadLimitsOf(config: Pick<PhotosConfig, 'PHOTO_MAX_BYTES' | 'VIDEO_MAX_BYTES'>): UploadLimits {
  return { photoMaxBytes: config.PHOTO_MAX_BYTES, videoMaxBytes: config.VIDEO_MAX_BYTES };
}

/** Media URLs are signed with a key derived from SECRETS_ENCRYPTION_KEY (the kit's dev fallback outside production). */
export function mediaSigningSecret(config: Pick<PhotosConfig, 'SECRETS_ENCRYPTION_KEY'>): string {
  return config.SECRETS_ENCRYPTION_KEY ?? DEV_SECRETS_ENCRYPTION_KEY;
}

/** The absolute base of the service's own URLs: PUBLIC_BASE_URL, else where it listens. */
export function publicBaseUrl(config: Pick<PhotosConfig, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}
