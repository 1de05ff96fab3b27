// The rules of the create body (spec "Create body") and of the list query, as zod schemas: the REST routes document
// them (payment-request.openapi.ts), and PaymentRequestService validates REST and GraphQL input with them alike.
import {
  BODY_NOT_AN_OBJECT_MESSAGE,
  MALFORMED_TEXT_MESSAGE,
  UnsafeWebhookUrlError,
  ValidationError,
  assertPublicWebhookUrl,
  checkInput,
  integerArgument,
  integerQueryParam,
  parseInput,
  wellFormedText,
  type FieldErrors,
} from '@tributary/kit';
import { z } from 'zod';
import { amountDecimalsMessage, amountSchema, type Amount } from '../../money/index.js';
import type { Asset } from '../assets/index.js';
import { PAYMENT_REQUEST_STATUSES, PAYMENT_REQUEST_TYPES, type PaymentRequestStatus, type PaymentRequestType } from './status-engine.js';

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
  ttlNotInteger: 'Must be an integer.',
  ttlRange: `Must be between ${TTL_MINUTES_MIN} and ${TTL_MINUTES_MAX}.`,
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

/**
 * The rules of each create field, once, under the domain's names (camelCase). The REST body (`createPaymentRequestBody`,
 * the spec's snake_case names) and the GraphQL input are both checked with these; errors name the spec's fields.
 */
const newPaymentRequestFields = {
  assetId: z.number().int().positive().meta({ description: "The asset's integer id from the dashboard (1 BTC, 2 ETH, 3 LTC, 4 MATIC)." }),
  title: wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(TITLE_MAX, { error: `Must be at most ${TITLE_MAX} characters.` })).meta({ description: 'Shown to the payer.' }),
  amount: amountSchema({ description: 'Decimal string, positive, at most the asset\'s decimal places as written (trailing zeros count). Required for an invoice; refused for a donation. JSON numbers are refused.' })
    .nullable()
    .optional(),
  // null counts as absent (the default) for every optional field.
  type: z.enum(PAYMENT_REQUEST_TYPES).nullable().default('invoice'),
  description: optionalText(DESCRIPTION_MAX, 'Shown to the payer.'),
  reference: optionalText(REFERENCE_MAX, "Merchant's own order id: returned to the merchant and in every webhook, never shown to the payer."),
  // Any integer here (not only safe ones): the invoice's range is checked by checkTtlAgainstType, since a donation link
  // ignores the value and accepts any integer. Documented as an integer without bounds for the same reason.
  ttlMinutes: z
    .number({ error: CREATE_MESSAGES.ttlNotInteger })
    .refine(Number.isInteger, { error: CREATE_MESSAGES.ttlNotInteger })
    .meta({ override: { type: 'integer' } })
    .nullable()
    .optional()
    .meta({
      description: `Invoice deadline in minutes from creation, ${TTL_MINUTES_MIN} to ${TTL_MINUTES_MAX} (default ${TTL_MINUTES_DEFAULT}). Ignored for a donation link: any integer is accepted there.`,
    }),
  webhookUrl: optionalUrl('Public https URL for payment.paid / payment.late / payment.expired; loopback, private and link-local hosts are refused.'),
  redirectUrl: optionalUrl('Public https URL the payer is sent to afterwards; same public-address rule.'),
};

/** The spec's name of each create field (REST body keys, and the field names of every validation error). */
export const CREATE_FIELD_NAMES = {
  assetId: 'asset_id',
  title: 'title',
  amount: 'amount',
  type: 'type',
  description: 'description',
  reference: 'reference',
  ttlMinutes: 'ttl_minutes',
  webhookUrl: 'webhook_url',
  redirectUrl: 'redirect_url',
} as const satisfies Record<keyof typeof newPaymentRequestFields, string>;

type CreateFieldName = keyof typeof CREATE_FIELD_NAMES;

const newPaymentRequestSchema = z.object(newPaymentRequestFields);

/**
 * What a merchant asks to create, in the domain's field names, not yet validated: the GraphQL input as it is, or a REST
 * body adapted by `draftFromBody`. `validateNewPaymentRequest` checks every field.
 */
export type PaymentRequestDraft = { [K in CreateFieldName]?: unknown };

/** The create body of the REST API (spec "Create body"): the same rules under the spec's names. Unknown fields are ignored. */
export const createPaymentRequestBody = z
  .object(Object.fromEntries(Object.entries(CREATE_FIELD_NAMES).map(([field, specName]) => [specName, newPaymentRequestFields[field as CreateFieldName]])))
  .meta({ id: 'CreatePaymentRequest' }) as unknown as z.ZodObject<{ [K in CreateFieldName as (typeof CREATE_FIELD_NAMES)[K]]: (typeof newPaymentRequestFields)[K] }>;

export type CreatePaymentRequestBody = z.infer<typeof createPaymentRequestBody>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The REST body as a draft: the spec's field names read into the domain's. A body that is not a JSON object is refused
 * (422 on `body`); a missing body reads as an empty one, so every required field is reported.
 */
export function draftFromBody(body: unknown): PaymentRequestDraft {
  if (body !== undefined && !isRecord(body)) throw new ValidationError({ body: [CREATE_MESSAGES.notAnObject] });
  const fields = body ?? {};
  const draft: PaymentRequestDraft = {};
  for (const [field, specName] of Object.entries(CREATE_FIELD_NAMES) as Array<[CreateFieldName, string]>) {
    if (Object.hasOwn(fields, specName)) draft[field] = fields[specName];
  }
  return draft;
}

/** A validated, normalised create: what the service stores. */
export interface NewPaymentRequest {
  asset: Asset;
  type: PaymentRequestType;
  title: string;
  description: string | null;
  /** null on a donation link. */
  amount: Amount | null;
  reference: string | null;
  /** Minutes to the deadline of an invoice (the default applied); null on a donation link. */
  ttlMinutes: number | null;
  webhookUrl: string | null;
  redirectUrl: string | null;
}

export interface NewPaymentRequestChecks {
  /** Looks up the asset of `asset_id` (null: unknown). */
  findAsset(id: number): Promise<Asset | null>;
  /** `WEBHOOK_ALLOW_PRIVATE_HOSTS`: hosts/CIDRs exempted from the public-address rule of the two URLs. */
  allowPrivateHosts: readonly string[];
  /** Problems found beforehand (the Idempotency-Key), reported in the same 422. */
  fields?: FieldErrors;
}

/** Field errors keyed by the spec's names (`names`: domain name → spec name). */
function specFieldErrors(fields: FieldErrors, names: Readonly<Record<string, string>>): FieldErrors {
  return Object.fromEntries(Object.entries(fields).map(([key, messages]) => [names[key] ?? key, messages]));
}

/**
 * Checks a draft against every rule of the spec's create body — shapes and bounds, the invoice/donation amount rule, the
 * asset (it must exist, and the amount must fit its decimals) and the public-address rule of both URLs — and reports
 * every problem in one ValidationError (422) naming the spec's fields.
 */
export async function validateNewPaymentRequest(draft: PaymentRequestDraft, checks: NewPaymentRequestChecks): Promise<NewPaymentRequest> {
  const parsed = checkInput(newPaymentRequestSchema, draft, { rootField: 'body' });
  const fields: FieldErrors = { ...checks.fields, ...(parsed.success ? {} : specFieldErrors(parsed.fields, CREATE_FIELD_NAMES)) };
  checkAmountAgainstType(draft, fields);
  checkTtlAgainstType(draft, fields);
  const valid = <K extends CreateFieldName>(field: K) => (parsed.success && !fields[CREATE_FIELD_NAMES[field]] ? parsed.data[field] : fieldAlone(draft, field, fields));
  // The asset's decimals count the places as sent (trailing zeros too), so the check reads the text, not the value.
  const amountText = valid('amount') ? (draft.amount as string) : undefined;
  const asset = await checkAsset(valid('assetId'), amountText, checks, fields);
  for (const field of ['webhookUrl', 'redirectUrl'] as const) await checkPublicUrl(field, valid(field), checks, fields);
  if (!parsed.success || !asset || Object.keys(fields).length > 0) throw new ValidationError(fields);
  const input = parsed.data;
  const type = input.type ?? 'invoice';
  return {
    asset,
    type,
    title: input.title,
    description: input.description ?? null,
    amount: type === 'invoice' ? (input.amount ?? null) : null,
    reference: input.reference ?? null,
    ttlMinutes: type === 'invoice' ? (input.ttlMinutes ?? TTL_MINUTES_DEFAULT) : null,
    webhookUrl: input.webhookUrl ?? null,
    redirectUrl: input.redirectUrl ?? null,
  };
}

/** One field parsed on its own, so the checks that need the database or DNS run on whatever is valid (one 422 for all). */
function fieldAlone<K extends CreateFieldName>(draft: PaymentRequestDraft, field: K, fields: FieldErrors): z.output<(typeof newPaymentRequestFields)[K]> | undefined {
  if (fields[CREATE_FIELD_NAMES[field]]) return undefined;
  const one = newPaymentRequestFields[field].safeParse(draft[field]);
  return one.success ? (one.data as z.output<(typeof newPaymentRequestFields)[K]>) : undefined;
}

/** An invoice needs an amount; a donation link refuses one (`null` counts as absent, and as the default type). */
function checkAmountAgainstType(draft: PaymentRequestDraft, fields: FieldErrors): void {
  const type = draft.type == null ? 'invoice' : draft.type;
  if (type === 'invoice' && draft.amount == null) fields.amount = [CREATE_MESSAGES.amountRequired];
  if (type === 'donation' && draft.amount != null) fields.amount = [CREATE_MESSAGES.donationAmount];
}

/**
 * An invoice's ttl_minutes is 1 to 10080; a donation link ignores it (spec: "ignored for donation links"), so there any
 * integer passes. A value that is not an integer is refused for both (the field's type), by the schema.
 */
function checkTtlAgainstType(draft: PaymentRequestDraft, fields: FieldErrors): void {
  const ttl = draft.ttlMinutes;
  if (draft.type === 'donation' || typeof ttl !== 'number' || !Number.isInteger(ttl) || fields.ttl_minutes) return;
  if (ttl < TTL_MINUTES_MIN || ttl > TTL_MINUTES_MAX) fields.ttl_minutes = [CREATE_MESSAGES.ttlRange];
}

async function checkAsset(assetId: number | undefined, amountText: string | undefined, checks: NewPaymentRequestChecks, fields: FieldErrors): Promise<Asset | null> {
  if (assetId === undefined) return null;
  const asset = await checks.findAsset(assetId);
  if (!asset) {
    fields.asset_id = [CREATE_MESSAGES.unknownAsset];
    return null;
  }
  const tooFine = amountText === undefined ? undefined : amountDecimalsMessage(amountText, asset);
  if (tooFine) fields.amount = [tooFine];
  return asset;
}

/** null/absent: no URL. An empty string is not absent: it is refused like any other non-URL. */
async function checkPublicUrl(field: 'webhookUrl' | 'redirectUrl', url: string | null | undefined, checks: NewPaymentRequestChecks, fields: FieldErrors): Promise<void> {
  if (url == null) return;
  const specName = CREATE_FIELD_NAMES[field];
  try {
    await assertPublicWebhookUrl(url, { allowPrivateHosts: checks.allowPrivateHosts, field: specName });
  } catch (error) {
    if (!(error instanceof UnsafeWebhookUrlError)) throw error;
    fields[specName] = error.fields[specName] ?? [error.message];
  }
}

/** The list's bounds, for the REST query parameters and GraphQL's Int arguments alike. */
const LIST_PAGE = { min: 1, max: PAGE_MAX, default: 1 } as const;
const LIST_PER_PAGE = { min: 1, max: PER_PAGE_MAX, default: PER_PAGE_DEFAULT } as const;

export const listPaymentRequestsQuery = z.object({
  per_page: integerQueryParam({ ...LIST_PER_PAGE, description: `Page size, 1 to ${PER_PAGE_MAX} (default ${PER_PAGE_DEFAULT}).` }),
  page: integerQueryParam({ ...LIST_PAGE, description: 'Page number from 1 (default 1).' }),
  // Not in the spec (which lists per_page and page); optional narrowing for dashboards and reconciliation.
  status: z
    .enum(PAYMENT_REQUEST_STATUSES)
    .optional()
    .meta({ description: 'Only requests that currently report this status (deadline applied: a pending invoice past its deadline is expired).' }),
  reference: z.string().min(1).max(REFERENCE_MAX).optional().meta({ description: "Only requests created with this reference (the merchant's order id), exact match." }),
});

/** A list query in the domain's terms: what the service takes (from GraphQL as it is, from REST once parsed). */
export interface PaymentRequestListQuery {
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  status?: PaymentRequestStatus | null | undefined;
  reference?: string | null | undefined;
}

/** The list query's rules on typed values (GraphQL's Int arguments), with the REST query's bounds and messages. */
const paymentRequestListSchema = z.object({
  page: integerArgument(LIST_PAGE),
  perPage: integerArgument(LIST_PER_PAGE),
  status: z.enum(PAYMENT_REQUEST_STATUSES).nullish().transform((value) => value ?? undefined),
  reference: listPaymentRequestsQuery.shape.reference.nullish().transform((value) => value ?? undefined),
});

/** The spec's name of each list parameter (the REST query's keys; the field names of every validation error). */
const LIST_FIELD_NAMES: Record<string, string> = { page: 'page', perPage: 'per_page', status: 'status', reference: 'reference' };

export type ValidPaymentRequestListQuery = z.output<typeof paymentRequestListSchema>;

/** Checks a list query (defaults applied); ValidationError (422) naming the spec's parameters. */
export function validateListQuery(query: PaymentRequestListQuery): ValidPaymentRequestListQuery {
  const parsed = checkInput(paymentRequestListSchema, query, { rootField: 'query' });
  if (parsed.success) return parsed.data;
  throw new ValidationError(specFieldErrors(parsed.fields, LIST_FIELD_NAMES));
}

/** The REST query (strings) as a list query; ValidationError (422) on a parameter that does not parse. */
export function listQueryFromSearchParams(query: unknown): PaymentRequestListQuery {
  const parsed = parseInput(listPaymentRequestsQuery, isRecord(query) ? query : {});
  return { page: parsed.page, perPage: parsed.per_page, status: parsed.status, reference: parsed.reference };
}
