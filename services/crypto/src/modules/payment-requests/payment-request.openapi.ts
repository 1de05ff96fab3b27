// The payment request routes as OpenAPI operations; payment-request.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_API_PREFIX, PUBLIC_API_PREFIX } from '../../api-paths.js';
import { API_KEY_SECURITY } from '../../api-security.js';
import { decimalStringSchema } from '../../money/index.js';
import { ASSET_CODES, CHAINS } from '../assets/index.js';
import { createPaymentRequestBody, listPaymentRequestsQuery, PER_PAGE_DEFAULT } from './payment-request.validation.js';
import { PAYMENT_REQUEST_STATUSES, PAYMENT_REQUEST_TYPES } from './status-engine.js';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN } from './payment-request.idempotency.js';

const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC.' });

/** Fields of the payer view (visibility P), in the spec's order. */
const publicFields = {
  id: z.string().meta({ description: 'Public slug: the hosted page URL and the public endpoint use it. Not the internal id.' }),
  type: z.enum(PAYMENT_REQUEST_TYPES),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(PAYMENT_REQUEST_STATUSES).meta({ description: 'A pending or partial invoice past expires_at reads expired.' }),
  asset: z.enum(ASSET_CODES),
  chain: z.enum(CHAINS),
  address: z.string().meta({ description: 'Receive address derived for this request alone.' }),
  amount_requested: decimalStringSchema.nullable().meta({ description: 'null on a donation link.' }),
  amount_paid: decimalStringSchema.meta({ description: 'Confirmed total; "0" until a payment lands.' }),
  amount_outstanding: decimalStringSchema.nullable().meta({ description: 'Remainder, never below "0"; null on a donation link.' }),
  expires_at: timestamp.nullable(),
  paid_at: timestamp.nullable(),
  redirect_url: z.string().nullable(),
};

export const paymentRequestResource = z
  .object({
    ...publicFields,
    reference: z.string().nullable(),
    webhook_url: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'PaymentRequest' });

export const publicPaymentRequestResource = z.object(publicFields).meta({
  id: 'PublicPaymentRequest',
  description: 'The payer view: the public fields only, unwrapped (no payment_request key).',
});

export const paymentRequestResponse = z.object({ payment_request: paymentRequestResource });

export const paymentRequestListResponse = z.object({
  data: z.array(paymentRequestResource),
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});

const idParam = z.object({ id: z.string().meta({ description: 'The internal integer id (from the Location header of the 201).' }) });
const slugParam = z.object({ slug: z.string().meta({ description: 'The public id (the object\'s `id`).' }) });

const one = (description: string) => ({ description, content: { 'application/json': { schema: paymentRequestResponse } } });

export const paymentRequestApi = {
  create: defineApiRoute({
    method: 'post',
    path: `${MERCHANT_API_PREFIX}/payment-requests`,
    errors: [401, 422],
    operation: {
      operationId: 'createPaymentRequest',
      summary: 'Create an invoice or a donation link',
      description:
        'A fresh receive address is derived for every request. The 201 carries `Location: /api/merchant/v1/payment-requests/{id}` with the internal id that the retrieve and cancel routes take (the object itself never shows it). Send an `Idempotency-Key` to make a retry safe: the same key with the same body answers 201 with the request the first attempt created (`Idempotent-Replayed: true`); the same key with a different body is a 422.',
      tags: ['Payment requests'],
      security: API_KEY_SECURITY,
      requestParams: {
        header: z.object({
          'Idempotency-Key': z
            .string()
            .regex(IDEMPOTENCY_KEY_PATTERN)
            .optional()
            .meta({ description: `Optional, 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID or your order id). Scoped to your account and kept for the life of the request.` }),
        }),
      },
      requestBody: { content: { 'application/json': { schema: createPaymentRequestBody } } },
      responses: {
        '201': {
          ...one('Created.'),
          headers: z.object({
            Location: z.string().meta({ description: 'Path of the new request with its internal id: /api/merchant/v1/payment-requests/{id}.' }),
            'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'Present when the Idempotency-Key was seen before and this is the request that first attempt created.' }),
          }),
        },
      },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_API_PREFIX}/payment-requests`,
    errors: [401, 422],
    operation: {
      operationId: 'listPaymentRequests',
      summary: "The caller's payment requests, newest first",
      description: `Paginated, ${PER_PAGE_DEFAULT} per page by default. Only the calling account's requests.`,
      tags: ['Payment requests'],
      security: API_KEY_SECURITY,
      requestParams: { query: listPaymentRequestsQuery },
      responses: { '200': { description: 'One page.', content: { 'application/json': { schema: paymentRequestListResponse } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_API_PREFIX}/payment-requests/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'getPaymentRequest',
      summary: 'One payment request by internal id',
      description: "Another account's request answers 404 like an unknown one.",
      tags: ['Payment requests'],
      security: API_KEY_SECURITY,
      requestParams: { path: idParam },
      responses: { '200': one('The request.') },
    },
  }),
  cancel: defineApiRoute({
    method: 'post',
    path: `${MERCHANT_API_PREFIX}/payment-requests/:id/cancel`,
    errors: [401, 404, 422],
    operation: {
      operationId: 'cancelPaymentRequest',
      summary: 'Cancel an unsettled payment request',
      description:
        'Pending, partial and expired requests become cancelled (an already cancelled one is returned unchanged); an invoice past its deadline is expired first, with its payment.expired webhook. A settled one (paid, overpaid) answers 422 `{"message":"A settled request cannot be cancelled.","errors":{"status":["The request is paid; only a pending, partial or expired request can be cancelled."]}}`.',
      tags: ['Payment requests'],
      security: API_KEY_SECURITY,
      requestParams: { path: idParam },
      responses: { '200': one('The cancelled request.') },
    },
  }),
  public: defineApiRoute({
    method: 'get',
    path: `${PUBLIC_API_PREFIX}/:slug`,
    errors: [404],
    operation: {
      operationId: 'getPublicPaymentRequest',
      summary: 'Payer view of a payment request (no credentials)',
      description: 'Public fields only, not wrapped in a `payment_request` key. A cancelled or unknown slug answers 404.',
      tags: ['Payer'],
      security: [],
      requestParams: { path: slugParam },
      responses: { '200': { description: 'The payer view.', content: { 'application/json': { schema: publicPaymentRequestResource } } } },
    },
  }),
};
