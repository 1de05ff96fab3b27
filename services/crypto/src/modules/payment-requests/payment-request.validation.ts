// The create body (spec "Create body") and the list query, as zod schemas: the routes document them
// (payment-request.openapi.ts) and PaymentRequestService validates with them, for REST and GraphQL alike.
import { BODY_NOT_AN_OBJECT_MESSAGE, MALFORMED_TEXT_MESSAGE, integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { amountSchema } from '../../money/index.js';
import { PAYMENT_REQUEST_STATUSES, PAYMENT_REQUEST_TYPES } from './status-engine.js';

export const TITLE_MAX = 191;
export const DESCRIPTION_MAX = 2000;
export const REFERENCE_MAX = 128;
export const URL_MAX = 2048;
export const TTL_MINUTES_MIN = 1;
export const TTL_MINUTES_MAX = 10080;
export const TTL_MINUTES_DEFAULT = 60;
export const PER_PAGE_MAX = 100;
export const PER_PAGE_DEFAULT = 25;
/** Highest page number accepted (keeps OFFSET bounded). */
export const PAGE_MAX = 1_000_000;

export const CREATE_MESSAGES = {
  unknownAsset: 'The selected asset id is invalid.',
  amountRequired: 'An invoice requires an amount.',
  donationAmount: 'A donation link has no amount; omit this field.',
  notAnObject: BODY_NOT_AN_OBJECT_MESSAGE,
  // PostgreSQL cannot store NUL; an unpaired surrogate is not text (the kit's wellFormedText refuses both).
  malformedText: MALFORMED_TEXT_MESSAGE,
} as const;

const optionalText = (max: number, description: string) =>
  wellFormedText(z.string().max(max, { error: `Must be at most ${max} characters.` }))
    .nullable()
    .optional()
    .meta({ description });

const optionalUrl = (description: string) =>
  wellFormedText(z.string().max(URL_MAX, { error: `Must be at most ${URL_MAX} characters.` }))
    .nullable()
    .optional()
    .meta({ description, format: 'uri', examples: ['https://shop.example/thanks'] });

/** The create body. Unknown fields are ignored. `amount` rules that depend on `type`/asset are checked by the service. */
export const createPaymentRequestBody = z
  .object({
    asset_id: z.number().int().positive().meta({ description: "The asset's integer id from the dashboard (1 BTC, 2 ETH, 3 LTC, 4 MATIC)." }),
    title: wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(TITLE_MAX, { error: `Must be at most ${TITLE_MAX} characters.` })).meta({ description: 'Shown to the payer.' }),
    amount: amountSchema({ description: 'Decimal string, positive, at most the asset\'s decimals. Required for an invoice; refused for a donation. JSON numbers are refused.' })
      .nullable()
      .optional(),
    // null counts as absent (the default) for every optional field.
    type: z.enum(PAYMENT_REQUEST_TYPES).nullable().default('invoice'),
    description: optionalText(DESCRIPTION_MAX, 'Shown to the payer.'),
    reference: optionalText(REFERENCE_MAX, "Merchant's own order id: returned to the merchant and in every webhook, never shown to the payer."),
    ttl_minutes: z
      .number()
      .int()
      .min(TTL_MINUTES_MIN, { error: `Must be between ${TTL_MINUTES_MIN} and ${TTL_MINUTES_MAX}.` })
      .max(TTL_MINUTES_MAX, { error: `Must be between ${TTL_MINUTES_MIN} and ${TTL_MINUTES_MAX}.` })
      .nullable()
      .optional()
      .meta({ description: `Invoice deadline in minutes from creation (default ${TTL_MINUTES_DEFAULT}). Validated but ignored for a donation link.` }),
    webhook_url: optionalUrl('Public https URL for payment.paid / payment.late / payment.expired; loopback, private and link-local hosts are refused.'),
    redirect_url: optionalUrl('Public https URL the payer is sent to afterwards; same public-address rule.'),
  })
  .meta({ id: 'CreatePaymentRequest' });

export type CreatePaymentRequestBody = z.infer<typeof createPaymentRequestBody>;

export const listPaymentRequestsQuery = z.object({
  per_page: integerQueryParam({ min: 1, max: PER_PAGE_MAX, default: PER_PAGE_DEFAULT, description: `Page size, 1 to ${PER_PAGE_MAX} (default ${PER_PAGE_DEFAULT}).` }),
  page: integerQueryParam({ min: 1, max: PAGE_MAX, default: 1, description: 'Page number from 1 (default 1).' }),
  // Not in the spec (which lists per_page and page); optional narrowing for dashboards and reconciliation.
  status: z
    .enum(PAYMENT_REQUEST_STATUSES)
    .optional()
    .meta({ description: 'Only requests that currently report this status (deadline applied: a pending invoice past its deadline is expired).' }),
  reference: z.string().min(1).max(REFERENCE_MAX).optional().meta({ description: "Only requests created with this reference (the merchant's order id), exact match." }),
});
