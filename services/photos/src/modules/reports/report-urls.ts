// The report's download_url: a signed, expiring URL like the media URLs (modules/photos/media-urls.ts), so a webhook
// receiver or a browser fetches the PDF without a token: `GET /api/v1/reports/<id>/pdf?expires=<unix s>&signature=
// <base64url HMAC-SHA256 over the report id, the PDF's SHA-256 and the expiry>`. Covering the PDF's hash ties a URL to
// one rendering. Its key is derived from the same secret with its own context (a media signature never opens a report).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { REST_BASE } from '../../api-paths.js';

/** How long a download URL stays valid at least, seconds (a day, as media URLs). */
export const REPORT_URL_TTL_SECONDS = 24 * 60 * 60;
/** Expiries are rounded up to a multiple of this (the same URL for an hour, so webhook data and REST reads agree). */
export const REPORT_URL_EXPIRY_STEP_SECONDS = 60 * 60;
/** The download route's path, Express notation. */
export const REPORT_PDF_ROUTE_PATH = `${REST_BASE}/reports/:report/pdf`;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const KEY_CONTEXT = 'tributary photos: report download URL signing key v1';

export class ReportUrlSigner {
  private readonly key: Buffer;

  /** `secret`: SECRETS_ENCRYPTION_KEY (base64) or the kit's dev key; the signing key is derived from it. */
  constructor(
    secret: string,
    private readonly baseUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', secret).update(KEY_CONTEXT).digest();
  }

  /** An absolute URL of the report's PDF (the rendering whose hash is `pdfSha256`). */
  url(reportId: number, pdfSha256: string): string {
    const expires = Math.ceil((this.now().getTime() / 1000 + REPORT_URL_TTL_SECONDS) / REPORT_URL_EXPIRY_STEP_SECONDS) * REPORT_URL_EXPIRY_STEP_SECONDS;
    const query = new URLSearchParams({ expires: String(expires), signature: this.signature(reportId, pdfSha256, expires) });
    return `${this.baseUrl}${REST_BASE}/reports/${reportId}/pdf?${query.toString()}`;
  }

  /** The public URL of a share link (the token is its only credential). */
  shareUrl(token: string): string {
    return `${this.baseUrl}${REST_BASE}/shared-reports/${token}`;
  }

  /** True when the signature is this service's own for the report's current PDF and the URL has not expired. */
  valid(reportId: number, pdfSha256: string, expires: number, signature: string): boolean {
    if (!SIGNATURE_PATTERN.test(signature)) return false;
    const expected = Buffer.from(this.signature(reportId, pdfSha256, expires), 'base64url');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'base64url'))) return false;
    return expires * 1000 > this.now().getTime();
  }

  private signature(reportId: number, pdfSha256: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${reportId}\n${pdfSha256}\n${expires}`).digest('base64url');
  }
}
