// The payment link routes (spec "Endpoints": /api/v1/merchant/payment-links, DT) as OpenAPI operations: the same zod
// schemas validate the bodies (PaymentLinkService) and document them; payment-link.routes.ts mounts the handlers.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { API_KEY_ENVIRONMENTS } from '../api-keys/index.js';
import { PAYMENT_LINK_ENVIRONMENT_DESCRIPTION, createPaymentLinkInput, updatePaymentLinkInput } from './payment-link.validation.js';

const tags = ['Payment links'];
const idParam = { path: z.object({ id: z.string().meta({ description: 'Payment link id (UUID).' }) }) };

export const paymentLinkResource = z
  .object({
    id: z.uuid(),
    title: z.string(),
    amount_cents: z.number().int(),
    currency: z.string(),
    max_uses: z.number().int().nullable().meta({ description: 'null = unlimited.' }),
    slug: z.string().meta({ description: '16 random characters [A-Za-z0-9]; the last segment of public_url.' }),
    public_url: z.string().meta({ description: 'Shareable page: shows the title and price and starts a checkout for it.' }),
    is_redeemable: z.boolean().meta({ description: 'False once uses_count has reached max_uses.' }),
    uses_count: z.number().int().meta({ description: 'Loans booked through the link.' }),
    environment: z.enum(API_KEY_ENVIRONMENTS).meta({ description: PAYMENT_LINK_ENVIRONMENT_DESCRIPTION }),
    livemode: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'BnplPaymentLink', description: 'A permanent shareable URL bound to a fixed price.' });

const linkJson = (description: string) => ({ description, content: { 'application/json': { schema: paymentLinkResource } } });

export const paymentLinkApi = {
  create: defineApiRoute({
    method: 'post',
    path: `${MERCHANT_PREFIX}/payment-links`,
    errors: [401, 422],
    operation: {
      operationId: 'createPaymentLink',
      summary: 'Create a payment link',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createPaymentLinkInput } } },
      responses: { '201': linkJson('The new link.') },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/payment-links`,
    errors: [401],
    operation: {
      operationId: 'listPaymentLinks',
      summary: "List the merchant's payment links",
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      responses: { '200': { description: 'Every link not deleted, newest first.', content: { 'application/json': { schema: z.object({ data: z.array(paymentLinkResource) }) } } } },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${MERCHANT_PREFIX}/payment-links/:id`,
    errors: [401, 404],
    operation: { operationId: 'getPaymentLink', summary: 'One payment link', tags, security: DASHBOARD_TOKEN_SECURITY, requestParams: idParam, responses: { '200': linkJson('The link.') } },
  }),
  update: defineApiRoute({
    method: 'put',
    path: `${MERCHANT_PREFIX}/payment-links/:id`,
    errors: [401, 404, 422],
    operation: {
      operationId: 'updatePaymentLink',
      summary: 'Update a payment link',
      description: 'Changes the fields given. A checkout already started keeps the price it started with; max_uses cannot go below uses_count.',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: idParam,
      requestBody: { required: true, content: { 'application/json': { schema: updatePaymentLinkInput } } },
      responses: { '200': linkJson('The updated link.') },
    },
  }),
  delete: defineApiRoute({
    method: 'delete',
    path: `${MERCHANT_PREFIX}/payment-links/:id`,
    errors: [401, 404],
    operation: {
      operationId: 'deletePaymentLink',
      summary: 'Delete a payment link',
      description: 'Its public page answers 404 from now on; loans it sold are kept.',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      requestParams: idParam,
      responses: { '204': { description: 'Deleted.' } },
    },
  }),
};
