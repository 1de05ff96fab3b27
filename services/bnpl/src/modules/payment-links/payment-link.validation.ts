// The payment link bodies (spec "Payment link": title, amount_cents, currency, max_uses), as zod schemas: the routes
// document them (payment-link.openapi.ts) and PaymentLinkService validates with them.
import { ValidationError, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { API_KEY_ENVIRONMENTS } from '../api-keys/index.js';
import { SUPPORTED_CURRENCIES } from '../plans/index.js';

export const MAX_USES_LIMIT = 1_000_000;

const title = wellFormedText(z.string().trim().min(1).max(191));
const amountCents = z.number().int().positive().max(2_147_483_647);
const currency = z.enum(SUPPORTED_CURRENCIES).meta({ description: 'ISO 4217 code, upper case.' });
const maxUses = z
  .number()
  .int()
  .min(1)
  .max(MAX_USES_LIMIT)
  .nullable()
  .meta({ description: 'Loans the link may sell; null (or absent at creation) = unlimited.' });
/** The `environment` field's description, shared by the request bodies and the resource. */
export const PAYMENT_LINK_ENVIRONMENT_DESCRIPTION =
  "Mode of the sessions and loans the link makes: `live` (livemode true; the chosen plan's shopper fee applies) or `test` (livemode false; no fees apply in test mode: the loan's total is its principal).";
const environment = z.enum(API_KEY_ENVIRONMENTS).meta({ description: `${PAYMENT_LINK_ENVIRONMENT_DESCRIPTION} Default \`live\`.` });

export const createPaymentLinkInput = z.object({
  title,
  amount_cents: amountCents,
  currency,
  max_uses: maxUses.optional(),
  environment: environment.optional(),
});

/** PUT: any subset of the create fields; an open checkout session keeps the price it started with. */
export const updatePaymentLinkInput = z.object({
  title: title.optional(),
  amount_cents: amountCents.optional(),
  currency: currency.optional(),
  max_uses: maxUses.optional(),
  environment: environment.optional(),
});

export type CreatePaymentLinkInput = z.infer<typeof createPaymentLinkInput>;
export type UpdatePaymentLinkInput = z.infer<typeof updatePaymentLinkInput>;

/** A create or update as the domain receives it, from a REST body or GraphQL arguments; values are checked by the schemas above. */
export interface PaymentLinkDraft {
  title?: unknown;
  amountCents?: unknown;
  currency?: unknown;
  maxUses?: unknown;
  environment?: unknown;
}

/** The spec's field name of each draft field (the names errors are reported under). */
const SPEC_NAMES = { title: 'title', amountCents: 'amount_cents', currency: 'currency', maxUses: 'max_uses', environment: 'environment' } as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The REST body as a draft (fields absent from the body stay absent); a body that is not an object is a 422 on `body`. */
export function paymentLinkDraftFromBody(body: unknown): PaymentLinkDraft {
  if (body !== undefined && !isRecord(body)) throw new ValidationError({ body: ['Must be a JSON object.'] });
  const fields = body ?? {};
  const draft: PaymentLinkDraft = {};
  for (const [field, specName] of Object.entries(SPEC_NAMES) as Array<[keyof PaymentLinkDraft, string]>) {
    if (Object.hasOwn(fields, specName)) draft[field] = fields[specName];
  }
  return draft;
}

/** The draft under the spec's names, for the schemas (undefined fields left out). */
export function specFieldsOf(draft: PaymentLinkDraft): Record<string, unknown> {
  return Object.fromEntries((Object.entries(SPEC_NAMES) as Array<[keyof PaymentLinkDraft, string]>).filter(([field]) => draft[field] !== undefined).map(([field, specName]) => [specName, draft[field]]));
}
