// Signed, expiring media URLs (decided in the README): `GET /api/v1/media/<photo>/<rendition>?expires=<unix s>&
// signature=<base64url HMAC-SHA256>`. An <img> tag and a webhook receiver can fetch them without a token; nobody can
// make one up or stretch one: the HMAC covers photo id, rendition and expiry, its key is derived from
// SECRETS_ENCRYPTION_KEY, and signatures are compared in constant time. Expiries are rounded up to the hour, so the
// same photo read twice within an hour gets the same URL (browser caches keep working).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { REST_BASE } from '../../api-paths.js';

export const RENDITIONS = ['full', 'thumb', 'poster'] as const;
export type Rendition = (typeof RENDITIONS)[number];

/** How long a signed URL stays valid at least, seconds (a day: long enough for webhook receivers and retries). */
export const MEDIA_URL_TTL_SECONDS = 24 * 60 * 60;
/** Expiries are rounded up to a multiple of this, seconds. */
export const MEDIA_URL_EXPIRY_STEP_SECONDS = 60 * 60;
/** The route's path, Express notation. */
export const MEDIA_ROUTE_PATH = `${REST_BASE}/media/:photo/:rendition`;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const KEY_CONTEXT = 'tributary photos: media URL signing key v1';

export type MediaUrlCheck = 'valid' | 'expired' | 'invalid';

export class MediaUrlSigner {
  private readonly key: Buffer;

  /** `secret`: SECRETS_ENCRYPTION_KEY (base64) or any other secret; the signing key is derived from it, never itself. */
  constructor(
    secret: string,
    private readonly baseUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', secret).update(KEY_CONTEXT).digest();
  }

  /** An absolute URL of the rendition, valid for at least MEDIA_URL_TTL_SECONDS. */
  url(photoId: number, rendition: Rendition): string {
    const expires = Math.ceil((this.now().getTime() / 1000 + MEDIA_URL_TTL_SECONDS) / MEDIA_URL_EXPIRY_STEP_SECONDS) * MEDIA_URL_EXPIRY_STEP_SECONDS;
    const query = new URLSearchParams({ expires: String(expires), signature: this.signature(photoId, rendition, expires) });
    return `${this.baseUrl}${REST_BASE}/media/${photoId}/${rendition}?${query.toString()}`;
  }

  /** Whether a request's expiry and signature are this service's own for that photo and rendition, and unexpired. */
  check(photoId: number, rendition: Rendition, expires: number, signature: string): MediaUrlCheck {
    if (!SIGNATURE_PATTERN.test(signature)) return 'invalid';
    const expected = Buffer.from(this.signature(photoId, rendition, expires), 'base64url');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'base64url'))) return 'invalid';
    return expires * 1000 <= this.now().getTime() ? 'expired' : 'valid';
  }

  /** Seconds until `expires`, at least 0. */
  secondsLeft(expires: number): number {
    return Math.max(0, Math.floor(expires - this.now().getTime() / 1000));
  }

  private signature(photoId: number, rendition: Rendition, expires: number): string {
    return createHmac('sha256', this.key).update(`${photoId}\n${rendition}\n${expires}`).digest('base64url');
  }
}
