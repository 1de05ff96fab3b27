// The refund bodies and list filters (spec "Refund": loan_id, amount_cents, reason), as zod schemas: the routes document
// them (refund.openapi.ts) and RefundService validates with them.
import { integerQueryParam, keysetCursorQueryParam, parseInput, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { REFUND_STATUSES, type RefundStatus } from './refund-status-engine.js';

export const REFUNDS_PAGE_DEFAULT = 25;
export const REFUNDS_PAGE_MAX = 100;
export const REFUND_REASON_MAX = 500;
export const LOAN_ID_FILTER_MESSAGE = 'Must be a loan id (UUID).';

export const createRefundInput = z.object({
    loan_id: z.uuid({ error: 'Must be the id of one of your sales (a UUID).' }).meta({ description: 'The loan (sale) to refund.' }),
    amount_cents: z.number().int().positive().max(2_147_483_647).meta({ description: 'Positive; with the loan\'s other refunds that have not failed, at most its principal.' }),
    reason: wellFormedText(z.string().trim().min(1).max(REFUND_REASON_MAX)).meta({ description: 'Free text, 1–500 characters.' }),
  });

/** A refund as the domain receives it, from a REST body or GraphQL arguments. */
export interface NewRefund {
  loanId: string;
  amountCents: number;
  reason: string;
}

const statusList = z
  .string()
  .transform((value, context) => {
    const statuses = value.split(',').map((status) => status.trim());
    const unknown = statuses.filter((status) => !(REFUND_STATUSES as readonly string[]).includes(status));
    if (unknown.length > 0) {
      context.addIssue({ code: 'custom', message: `Unknown status ${unknown.map((status) => JSON.stringify(status.slice(0, 40))).join(', ')}; one of ${REFUND_STATUSES.join(', ')}.` });
      return z.NEVER;
    }
    return [...new Set(statuses)] as RefundStatus[];
  })
  .meta({ description: `Comma-separated refund statuses: ${REFUND_STATUSES.join(', ')}.` });

export const listRefundsQuery = z.object({
  loan_id: z.uuid({ error: LOAN_ID_FILTER_MESSAGE }).optional().meta({ description: 'Only the refunds of this loan.' }),
  status: statusList.optional(),
  page: keysetCursorQueryParam,
  limit: integerQueryParam({ min: 1, max: REFUNDS_PAGE_MAX, default: REFUNDS_PAGE_DEFAULT, description: `Refunds per page, 1–${REFUNDS_PAGE_MAX} (default ${REFUNDS_PAGE_DEFAULT}).` }),
});

/** The list filters as the domain receives them. */
export interface RefundFilters {
  loanId?: string | undefined;
  status?: RefundStatus[] | undefined;
  page?: string | undefined;
  limit?: number | undefined;
}

/** The REST query string (every value text) as list filters; a bad value is a 422 naming its parameter. */
export function refundFiltersFromQuery(query: unknown): RefundFilters {
  const parsed = parseInput(listRefundsQuery, query, { rootField: 'query' });
  return { loanId: parsed.loan_id, status: parsed.status, page: parsed.page, limit: parsed.limit };
}
