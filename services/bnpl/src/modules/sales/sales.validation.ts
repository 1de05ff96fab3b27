// The sales filters (spec "Endpoints": status, from, to, page; plus limit) as the REST query documents them and as the
// domain checks them, once for REST (strings) and GraphQL (typed arguments): every problem in one 422 naming the
// parameter. from and to are calendar days in UTC, inclusive, matched against the sale's created_at (booking time).
import { KEYSET_CURSOR_FORMAT, ValidationError, integerQueryParam, integerRangeMessage, parseInput, type FieldErrors } from '@tributary/kit';
import { z } from 'zod';
import { LOAN_STATUSES, type LoanStatus } from '../loans/index.js';
import { INVALID_SALES_CURSOR_MESSAGE, SALES_CURSOR_MAX_LENGTH, decodeSalesCursor, type SalesCursorPosition } from './sales-cursor.js';

export const SALES_PAGE_DEFAULT = 25;
export const SALES_PAGE_MAX = 100;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MESSAGE = 'Must be a calendar date YYYY-MM-DD.';
export const unknownStatusMessage = (status: string): string => `Unknown loan status "${status.slice(0, 40)}"; one of: ${LOAN_STATUSES.join(', ')}.`;

const statusParam = z.string().meta({ description: `Comma-separated loan statuses (any of ${LOAN_STATUSES.join(', ')}); a sale matches any of them. An unknown one is a 422.` });
const dayParam = (which: 'from' | 'to') =>
  z.string().meta({
    description: `${which === 'from' ? 'First' : 'Last'} calendar day (YYYY-MM-DD, UTC, inclusive) of the sale's created_at (the moment checkout booked the loan).`,
    format: 'date',
  });

/** The filters the list and the CSV export share. */
export const salesFilterQuery = z.object({ status: statusParam.optional(), from: dayParam('from').optional(), to: dayParam('to').optional() });

export const listSalesQuery = salesFilterQuery.extend({
  page: z.string().optional().meta({ description: "Cursor: the previous page's next_cursor (opaque). Absent = the first page (the newest sales).", format: KEYSET_CURSOR_FORMAT }),
  limit: integerQueryParam({ min: 1, max: SALES_PAGE_MAX, default: SALES_PAGE_DEFAULT, description: `Page size, 1 to ${SALES_PAGE_MAX} (default ${SALES_PAGE_DEFAULT}).` }),
});

/** The filters as the domain receives them: REST gives `status` comma-separated, GraphQL a list of spec values. */
export interface SalesFilterInput {
  status?: string | readonly string[] | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}

export interface SalesListInput extends SalesFilterInput {
  page?: string | null | undefined;
  limit?: number | null | undefined;
}

/** Checked filters: statuses (empty = every status) and the UTC instants [fromInstant, toExclusive). */
export interface SalesFilters {
  statuses: LoanStatus[];
  /** `YYYY-MM-DDT00:00:00Z` of `from`. */
  fromInstant?: string;
  /** `YYYY-MM-DDT00:00:00Z` of the day after `to`. */
  toExclusive?: string;
}

export interface SalesListQuery extends SalesFilters {
  after?: SalesCursorPosition;
  limit: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The REST list query (strings) for the domain; a repeated parameter or a bad limit is a 422 on it. */
export function salesListInputFromQuery(query: unknown): SalesListInput {
  const parsed = parseInput(listSalesQuery, isRecord(query) ? query : {});
  return { status: parsed.status, from: parsed.from, to: parsed.to, page: parsed.page, limit: parsed.limit };
}

/** The REST export query (strings) for the domain. */
export function salesFilterInputFromQuery(query: unknown): SalesFilterInput {
  const parsed = parseInput(salesFilterQuery, isRecord(query) ? query : {});
  return { status: parsed.status, from: parsed.from, to: parsed.to };
}

export function validateSalesFilters(input: SalesFilterInput): SalesFilters {
  const fields: FieldErrors = {};
  const filters = checkFilters(input, fields);
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  return filters;
}

export function validateSalesList(input: SalesListInput): SalesListQuery {
  const fields: FieldErrors = {};
  const filters = checkFilters(input, fields);
  const limit = input.limit ?? SALES_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SALES_PAGE_MAX) fields.limit = [integerRangeMessage(1, SALES_PAGE_MAX)];
  let after: SalesCursorPosition | undefined;
  if (input.page != null) {
    after = decodeSalesCursor(input.page.slice(0, SALES_CURSOR_MAX_LENGTH + 1)) ?? undefined;
    if (!after) fields.page = [INVALID_SALES_CURSOR_MESSAGE];
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  return { ...filters, limit, ...(after ? { after } : {}) };
}

function checkFilters(input: SalesFilterInput, fields: FieldErrors): SalesFilters {
  const statuses = checkStatuses(input.status, fields);
  const from = checkDay(input.from, 'from', fields);
  const to = checkDay(input.to, 'to', fields);
  if (from && to && to < from) fields.to = ['Must not be before from.'];
  return {
    statuses,
    ...(from ? { fromInstant: `${from}T00:00:00.000Z` } : {}),
    ...(to ? { toExclusive: `${nextDay(to)}T00:00:00.000Z` } : {}),
  };
}

function checkStatuses(status: SalesFilterInput['status'], fields: FieldErrors): LoanStatus[] {
  if (status == null) return [];
  const listed = typeof status === 'string' ? status.split(',') : [...status];
  const unknown = listed.filter((value) => !(LOAN_STATUSES as readonly string[]).includes(value));
  if (unknown.length > 0) {
    fields.status = unknown.slice(0, 3).map(unknownStatusMessage);
    return [];
  }
  return [...new Set(listed as LoanStatus[])];
}

/** A real calendar day YYYY-MM-DD (2026-02-30 is refused), or undefined when absent. */
function checkDay(value: string | null | undefined, field: 'from' | 'to', fields: FieldErrors): string | undefined {
  if (value == null) return undefined;
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    fields[field] = [DAY_MESSAGE];
    return undefined;
  }
  return value;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}
