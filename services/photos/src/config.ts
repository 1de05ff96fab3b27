// The photos service's environment: the kit's serviceEnv plus the media limits, where media is stored, the rate
// limits and the kit's secrets env.
import { envInteger, envUrl, requireSecretsKeyOutsideDevelopment, secretsFields, serviceEnv } from '@tributary/kit';
import { z } from 'zod';
import { rateLimitFields } from './rate-limits.js';

const MIB = 1024 * 1024;
/** Upload size limits per media type (not shown in the spec; decided here, see the README's Decisions table). */
export const DEFAULT_PHOTO_MAX_BYTES = 25 * MIB;
export const DEFAULT_VIDEO_MAX_BYTES = 500 * MIB;

export const mediaFields = {
  /** Largest photo upload accepted, bytes; a larger one is refused with 413. */
  PHOTO_MAX_BYTES: envInteger(1, 2 ** 31).default(DEFAULT_PHOTO_MAX_BYTES),
  /** Largest video upload accepted, bytes; a larger one is refused with 413. */
  VIDEO_MAX_BYTES: envInteger(1, 2 ** 40).default(DEFAULT_VIDEO_MAX_BYTES),
  /** Directory of stored media when no S3 bucket is configured (`npm start` puts it under .stack/). */
  MEDIA_STORAGE_DIR: z.string().trim().min(1).optional(),
  /** S3-compatible object storage: set S3_BUCKET to store media there instead of on local disk. */
  S3_BUCKET: z.string().trim().min(3).max(63).optional(),
  S3_ENDPOINT: envUrl(['http:', 'https:'], 'an http:// or https:// URL').optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** Path-style bucket addressing (`https://host/bucket/key`), which most S3-compatible servers need. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
};

/**
 * `serve` and `worker`: serviceEnv + media + rate limits (rate-limits.ts) + SECRETS_ENCRYPTION_KEY (seals webhook
 * endpoint secrets; media URLs are signed with a key derived from it).
 */
export const photosEnv = serviceEnv.extend({ ...mediaFields, ...rateLimitFields, ...secretsFields }).superRefine(requireSecretsKeyOutsideDevelopment);
export type PhotosConfig = z.infer<typeof photosEnv>;
