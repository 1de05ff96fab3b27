// The sales list's page cursor (GET /api/v1/merchant/sales `page`, GraphQL `sales(page:)`): an opaque token naming
// the last sale of a page by its position in the list's order, newest first by (created_at, loan_id). The next page
// is "the sales after this position" (keyset pagination, no OFFSET), so sales booked while a client pages sort in
// front of the first page and never shift, duplicate or skip a row of the pages that follow.
// Wire format (opaque to clients, decided here): base64url of `s1|<created_at, ISO 8601 UTC with microseconds>|<uuid>`.
// created_at keeps PostgreSQL's microseconds (a JavaScript Date would round them away and break ties).
import { isUuid } from '@tributary/kit';

/** Where the previous page ended: the last sale's created_at (exact, microseconds) and id. */
export interface SalesCursorPosition {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as PostgreSQL stores it. */
  createdAt: string;
  loanId: string;
}

const VERSION = 's1';
/** Longer than any cursor this file makes; longer input is refused before decoding. */
export const SALES_CURSOR_MAX_LENGTH = 128;
const CREATED_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const INVALID_SALES_CURSOR_MESSAGE = 'Must be a next_cursor returned by this list.';

export function encodeSalesCursor(position: SalesCursorPosition): string {
  return Buffer.from(`${VERSION}|${position.createdAt}|${position.loanId}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one this file made (then the caller answers 422 on `page`). */
export function decodeSalesCursor(cursor: string): SalesCursorPosition | null {
  if (cursor.length === 0 || cursor.length > SALES_CURSOR_MAX_LENGTH || !BASE64URL.test(cursor)) return null;
  const [version, createdAt, loanId, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (version !== VERSION || createdAt === undefined || loanId === undefined || rest.length > 0) return null;
  // Only the lower-case form this file writes: another spelling of the same id is not one of our cursors.
  if (!isUuid(loanId) || loanId !== loanId.toLowerCase() || !isRealInstant(createdAt)) return null;
  return { createdAt, loanId };
}

/** A well-formed instant whose calendar fields exist (no 2026-02-30, no 25:00). */
function isRealInstant(text: string): boolean {
  const match = CREATED_AT.exec(text);
  if (!match) return false;
  const millis = Date.parse(`${text.slice(0, 23)}Z`);
  return Number.isFinite(millis) && new Date(millis).toISOString().slice(0, 19) === text.slice(0, 19);
}
