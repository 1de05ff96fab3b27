// An opaque page cursor for keyset pagination over (created_at, id), newest first: the position of the last row of a
// page, so the next page starts strictly after it. Rows added meanwhile sort before the position (newer) and never
// shift a later page, so no row is skipped or repeated; no OFFSET is ever read. The cursor is base64url JSON, opaque to
// clients (they pass back what they got); anything else is a 422 on the parameter that carried it.
import { z } from 'zod';
import { ValidationError } from '../errors/index.js';
import { isUuid } from './text.js';

/**
 * The OpenAPI `format` of a cursor parameter: a value only the server issues (a previous page's next_cursor), so a
 * client (or the fuzz suite) cannot make up a valid one.
 */
export const KEYSET_CURSOR_FORMAT = 'keyset-cursor';

/** The `page` query parameter of a keyset-paginated list, documented as a server-issued cursor. */
export const keysetCursorQueryParam = z
  .string()
  .optional()
  .meta({ description: 'The next_cursor of the previous page (opaque; absent for the first page).', format: KEYSET_CURSOR_FORMAT });

/** The position of a row in (created_at desc, id desc) order. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** Longer than any cursor this module writes: a huge value is refused before it is decoded. */
const MAX_CURSOR_LENGTH = 200;

export const INVALID_CURSOR_MESSAGE = 'Must be a cursor from a previous page (next_cursor).';

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), id: position.id }), 'utf8').toString('base64url');
}

/** The position a cursor holds; a value that is not one of ours is a ValidationError on `field`. */
export function decodeKeysetCursor(cursor: string, field: string): KeysetPosition {
  const refuse = () => new ValidationError({ [field]: [INVALID_CURSOR_MESSAGE] });
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (typeof decoded !== 'object' || decoded === null) throw refuse();
  const { t, id } = decoded as { t?: unknown; id?: unknown };
  if (typeof t !== 'string' || typeof id !== 'string' || !isUuid(id)) throw refuse();
  const createdAt = new Date(t);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== t) throw refuse();
  return { createdAt, id };
}

/**
 * A page from `limit + 1` rows read in order: the first `limit`, and the cursor of the last of them when more rows
 * follow (null on the last page).
 */
export function keysetPage<T extends KeysetPosition>(rows: readonly T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeKeysetCursor(last) : null };
}

/** The filter of rows strictly after `after` in (created_at desc, id desc) order; none for the first page. */
export function keysetAfter(after: KeysetPosition | undefined): { $or?: Array<Record<string, unknown>> } {
  if (!after) return {};
  return { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }] };
}
