// The settlement routes (spec "Endpoints": /api/v1/merchant/settlements, DT) as OpenAPI operations.
import { defineApiRoute, integerQueryParam, keysetCursorQueryParam } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { SETTLEMENT_CADENCES } from '../merchants/index.js';
import { SETTLEMENT_STATUSES } from './settlement-period.js';
import { SETTLEMENTS_PAGE_DEFAULT, SETTLEMENTS_PAGE_MAX } from './settlement.service.js';

const tags = ['Settlements'];
const SETTLEMENTS_PATH = `${MERCHANT_PREFIX}/settlements`;

export const listSettlementsQuery = z.object({
  page: keysetCursorQueryParam,
  limit: integerQueryParam({ min: 1, max: SETTLEMENTS_PAGE_MAX, default: SETTLEMENTS_PAGE_DEFAULT, description: `Batches per page, 1–${SETTLEMENTS_PAGE_MAX} (default ${SETTLEMENTS_PAGE_DEFAULT}).` }),
});

export const settlementResource = z
  .object({
    id: z.uuid(),
    batch: z.string().meta({ description: '<first day>..<last day>-<currency>, with -test for test mode.' }),
    status: z.enum(SETTLEMENT_STATUSES).meta({ description: 'pending when cut; paid once the payout is made (settlement.processed fires then).' }),
    gross_cents: z.number().int().meta({ description: 'Principal of the sales funded in the period (and not settled before).' }),
    mdr_cents: z.number().int().meta({ description: 'Sum of each sale\'s merchant discount, principal × mdr_bps / 10 000 rounded half up per sale; 0 in test mode.' }),
    refunds_cents: z.number().int().meta({ description: 'Processed refunds of funded sales not deducted before.' }),
    adjustments_cents: z.number().int().meta({ description: 'Operator adjustments (positive pays more).' }),
    net_cents: z.number().int().meta({ description: 'gross − mdr − refunds + adjustments; negative when the merchant owes.' }),
    currency: z.string(),
    livemode: z.boolean(),
    cadence: z.enum(SETTLEMENT_CADENCES),
    period_start: z.iso.date(),
    period_end: z.iso.date().meta({ description: 'Last day of the period (inclusive), UTC.' }),
    mdr_bps: z.number().int(),
    created_at: z.iso.datetime(),
    paid_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'BnplSettlement', description: 'A settlement batch (payout) for one period, currency and mode.' });

export const settlementDetailResource = settlementResource
  .extend({
    sales: z.array(z.object({ loan_id: z.uuid(), loan_number: z.string(), principal_cents: z.number().int(), mdr_cents: z.number().int() })),
    refunds: z.array(z.object({ refund_id: z.uuid(), loan_id: z.uuid(), amount_cents: z.number().int() })),
    adjustments: z.array(z.object({ adjustment_id: z.uuid(), amount_cents: z.number().int(), reason: z.string() })),
  })
  .meta({ id: 'BnplSettlementDetail', description: 'A batch with every sale, refund and adjustment it covers; they add up to its figures.' });

export const settlementApi = {
  list: defineApiRoute({
    method: 'get',
    path: SETTLEMENTS_PATH,
    errors: [401, 422],
    operation: {
      operationId: 'listSettlements',
      summary: "List the merchant's settlements",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { query: listSettlementsQuery },
      responses: {
        '200': {
          description: 'Newest first; next_cursor is null on the last page.',
          content: { 'application/json': { schema: z.object({ data: z.array(settlementResource), next_cursor: z.string().nullable() }) } },
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${SETTLEMENTS_PATH}/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'getSettlement',
      summary: 'One settlement with what it covers',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: { path: z.object({ id: z.string().meta({ description: 'Settlement id (UUID).' }) }) },
      responses: { '200': { description: 'The batch and its sales, refunds and adjustments.', content: { 'application/json': { schema: settlementDetailResource } } } },
    },
  }),
};
