// The sales routes (spec "Endpoints": /api/v1/merchant/sales, its detail and its CSV export; DT) as OpenAPI operations:
// the same zod schemas parse the queries (sales.validation.ts) and document them; sales.routes.ts mounts the handlers.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { INSTALLMENT_STATUSES, LOAN_STATUSES } from '../loans/index.js';
import { PLAN_IDS, availablePlanResource } from '../plans/index.js';
import { SALES_CSV_COLUMNS, SALES_CSV_FILENAME } from './sales-csv.js';
import { SALES_PAGE_MAX, listSalesQuery, salesFilterQuery } from './sales.validation.js';

const tags = ['Sales'];

export const saleResource = z
  .object({
    loan_id: z.uuid(),
    loan_number: z.string().meta({ description: 'LN-XXXXX-XXXXX (Crockford base32).' }),
    merchant_id: z.uuid(),
    principal_cents: z.number().int().meta({ description: 'The cart amount sold, minor units.' }),
    fee_cents: z.number().int().meta({ description: "The shopper's fee, minor units: the plan's on a live sale, 0 on a test-mode sale (no fees apply in test mode)." }),
    total_cents: z.number().int().meta({ description: 'principal_cents + fee_cents; the installments add up to it.' }),
    currency: z.string(),
    status: z.enum(LOAN_STATUSES),
    purchase_reference: z.string().meta({ description: "The widget session's order_reference." }),
    disbursed_at: z.iso.datetime().nullable().meta({ description: 'ISO 8601 UTC; null until funds are released to the merchant.' }),
    plan_id: z.enum(PLAN_IDS),
    livemode: z.boolean().meta({ description: 'false for loans made with a test key.' }),
    created_at: z.iso.datetime().meta({ description: 'When checkout booked the loan (ISO 8601 UTC); what from and to filter on.' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'BnplSale', description: 'A sale (loan) as the list shows it: the spec\'s loan keys plus plan_id, fee_cents, livemode and timestamps.' });

export const saleInstallmentResource = z
  .object({
    installment_id: z.uuid(),
    installment_number: z.number().int().meta({ description: 'From 1, in due order.' }),
    amount_cents: z.number().int(),
    due_date: z.iso.date().meta({ description: 'YYYY-MM-DD (UTC calendar day).' }),
    paid_at: z.iso.datetime().nullable().meta({ description: 'ISO 8601 UTC; null until paid.' }),
    status: z.enum(INSTALLMENT_STATUSES).meta({ description: 'pending until paid; missed once its last auto-debit attempt was declined (it can still be paid in-app); paid.' }),
  })
  .meta({ id: 'BnplSaleInstallment' });

export const saleDetailResource = saleResource
  .extend({
    installments: z.array(saleInstallmentResource).meta({ description: 'In installment_number order.' }),
    plan: availablePlanResource.meta({ description: "The installment plan the shopper chose, as the catalogue describes it, with the sale's fee rate (fee_bps 0 on a test-mode sale)." }),
    customer: z.object({ email: z.string(), phone: z.string().nullable().meta({ description: 'E.164, or null when the shopper gave none.' }) }).meta({ description: 'The shopper as entered at checkout.' }),
  })
  .meta({ id: 'BnplSaleDetail', description: 'The full loan plus installments[], plan and customer.' });

export const salesListResponse = z
  .object({
    data: z.array(saleResource).meta({ description: 'Newest first (created_at, then loan_id, descending).' }),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `page` for the next page; null on the last page.' }),
  })
  .meta({ id: 'BnplSalesPage' });

const loanIdParam = { path: z.object({ loan_id: z.string().meta({ description: 'The sale\'s loan_id (UUID).' }) }) };

export const salesApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/sales`,
    errors: [401, 422],
    operation: {
      operationId: 'listSales',
      summary: "List the merchant's sales",
      description: `Keyset pagination: at most \`limit\` sales (default 25, max ${SALES_PAGE_MAX}) and \`next_cursor\`; sales booked meanwhile never shift the pages that follow.`,
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { query: listSalesQuery },
      responses: { '200': { description: 'One page of sales.', content: { 'application/json': { schema: salesListResponse } } } },
    },
  }),
  export: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/sales/export.csv`,
    errors: [401, 422, 429],
    operation: {
      operationId: 'exportSales',
      summary: 'Every sale as CSV',
      description: `Streamed (RFC 4180, CRLF, UTF-8, header row), newest first, filtered like the list (status, from, to; no paging). Columns: ${SALES_CSV_COLUMNS.join(', ')}. Text cells starting with =, +, -, @, tab or CR are prefixed with a single quote (formula injection). A merchant runs at most BNPL_EXPORTS_PER_MERCHANT exports at once (default 2; one more answers 429 \`rate_limited\`); a download whose client reads nothing for BNPL_EXPORT_IDLE_TIMEOUT_SECONDS (default 30) is cut off.`,
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { query: salesFilterQuery },
      responses: {
        '200': {
          description: `Attachment \`${SALES_CSV_FILENAME}\`.`,
          headers: { 'Content-Disposition': { description: `attachment; filename="${SALES_CSV_FILENAME}"`, schema: { type: 'string' } } },
          content: { 'text/csv': { schema: z.string() } },
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/sales/:loan_id`,
    errors: [401, 404],
    operation: {
      operationId: 'getSale',
      summary: 'One sale with its installments, plan and customer',
      description: "Another merchant's, an unknown or a malformed loan_id: 404.",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: loanIdParam,
      responses: { '200': { description: 'The sale.', content: { 'application/json': { schema: saleDetailResource } } } },
    },
  }),
};
