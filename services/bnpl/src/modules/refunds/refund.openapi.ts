// The refund routes (spec "Endpoints": /api/v1/merchant/refunds, DT) as OpenAPI operations: the same zod schemas
// validate (RefundService) and document; refund.routes.ts mounts the handlers.
import { IDEMPOTENCY_KEY_HEADER, defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { REFUND_STATUSES } from './refund-status-engine.js';
import { createRefundInput, listRefundsQuery } from './refund.validation.js';

const tags = ['Refunds'];
export const REFUNDS_PATH = `${MERCHANT_PREFIX}/refunds`;

export const refundResource = z
  .object({
    id: z.uuid(),
    loan_id: z.uuid().meta({ description: 'The loan (sale) refunded.' }),
    amount_cents: z.number().int(),
    currency: z.string().meta({ description: "The loan's currency." }),
    reason: z.string(),
    status: z.enum(REFUND_STATUSES).meta({ description: 'requested → processing → processed, or failed (failure_reason says why).' }),
    failure_reason: z.string().nullable(),
    returned_to_shopper_cents: z.number().int().meta({ description: 'Of a processed refund, what went back to the shopper\'s payment method because it exceeded what they still owed; the rest reduced their unpaid installments, last first.' }),
    livemode: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    processed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'BnplRefund', description: 'A refund of part or all of a sale\'s principal.' });

const refundJson = (description: string) => ({ description, content: { 'application/json': { schema: refundResource } } });
const idempotencyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().optional().meta({ description: 'Retry-safe create: the same key and body return the first refund (200 is never used: 201 with Idempotent-Replayed: true); another body is a 422.' }),
});

export const refundApi = {
  create: defineApiRoute({
    method: 'post',
    path: REFUNDS_PATH,
    errors: [401, 409, 422],
    operation: {
      operationId: 'createRefund',
      summary: 'Refund part or all of a sale',
      description:
        'Accepted for approved, funded, active, in_arrears and paid_off sales (409 otherwise). The sale\'s refunds that have not failed never add up to more than its principal (422). Processed in the background by the workflow `refund-<id>`; read its status with GET.',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, content: { 'application/json': { schema: createRefundInput } } },
      responses: { '201': refundJson('The refund, status requested.') },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: REFUNDS_PATH,
    errors: [401, 422],
    operation: {
      operationId: 'listRefunds',
      summary: "List the merchant's refunds",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { query: listRefundsQuery },
      responses: {
        '200': {
          description: 'Newest first. next_cursor is null on the last page; pass it as `page` for the next one.',
          content: { 'application/json': { schema: z.object({ data: z.array(refundResource), next_cursor: z.string().nullable() }) } },
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REFUNDS_PATH}/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'getRefund',
      summary: 'One refund',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { path: z.object({ id: z.string().meta({ description: 'Refund id (UUID).' }) }) },
      responses: { '200': refundJson('The refund.') },
    },
  }),
};
