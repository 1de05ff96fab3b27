// The widget session create body (spec "Widget session", create request fields) as a zod schema: the route documents
// it (widget-session.openapi.ts) and WidgetSessionService validates with it, adding the one rule zod cannot know (the
// amount against the merchant's enabled plans) to the same 422. Unknown fields are ignored; null counts as absent
// for the optional fields.
import { BODY_NOT_AN_OBJECT_MESSAGE, ValidationError, checkInput, emailAddress, wellFormedText, type FieldErrors } from '@tributary/kit';
import { z } from 'zod';
import { CURRENCY_CODE_PATTERN, NO_PLAN_ENABLED_MESSAGE, SUPPORTED_CURRENCIES, financeableAmountProblem, isSupportedCurrency, type InstallmentPlan } from '../plans/index.js';
import { CUSTOMER_EMAIL_MAX, ORDER_REFERENCE_MAX, PURCHASE_DESCRIPTION_MAX, REDIRECT_URL_MAX } from './widget-session.limits.js';

/** E.164: `+`, a country code not starting with 0, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
/** Hosts a test-mode session may send the shopper to over plain http (a merchant's local development shop). */
export const LOCAL_REDIRECT_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const maxMessage = (max: number) => `Must be at most ${max} characters.`;
/** A field's type error: "This field is required." when it is missing, else `message`. */
const requiredOr = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? SESSION_CREATE_MESSAGES.required : message);

export const SESSION_CREATE_MESSAGES = {
  required: 'This field is required.',
  notText: 'Must be a string.',
  amount: 'Must be a positive integer amount in minor units (cents).',
  currencyFormat: 'Must be an ISO 4217 currency code in upper case, e.g. USD.',
  currencyUnsupported: `Unsupported currency; supported: ${SUPPORTED_CURRENCIES.join(', ')}.`,
  email: 'Must be an e-mail address.',
  phone: 'Must be an international phone number in E.164 format, e.g. +14155550123.',
  urlAbsolute: 'Must be an absolute URL.',
  urlCredentials: 'Must not contain a user name or password.',
  urlHttpsLive: 'Must be an https URL.',
  urlHttpsTest: 'Must be an https URL (http://localhost and http://127.0.0.1 are allowed with a test key).',
  noPlanEnabled: NO_PLAN_ENABLED_MESSAGE,
} as const;

/** Why a success_url / cancel_url is refused, or null: https anywhere; plain http only to a local host, test mode only. */
export function redirectUrlProblem(value: string, livemode: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return SESSION_CREATE_MESSAGES.urlAbsolute;
  }
  if (url.username !== '' || url.password !== '') return SESSION_CREATE_MESSAGES.urlCredentials;
  if (url.protocol === 'https:' && url.hostname !== '') return null;
  if (!livemode && url.protocol === 'http:' && LOCAL_REDIRECT_HOSTS.includes(url.hostname)) return null;
  return livemode ? SESSION_CREATE_MESSAGES.urlHttpsLive : SESSION_CREATE_MESSAGES.urlHttpsTest;
}

const redirectUrl = (livemode: boolean, description: string) =>
  wellFormedText(z.string({ error: requiredOr(SESSION_CREATE_MESSAGES.notText) }).trim().max(REDIRECT_URL_MAX, { error: maxMessage(REDIRECT_URL_MAX) }))
    .superRefine((value, ctx) => {
      const problem = redirectUrlProblem(value, livemode);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ description, format: 'uri', examples: ['https://shop.example/checkout/done'] });

const optional = <S extends z.ZodType>(schema: S) => schema.nullable().optional();

/**
 * The create body's rules. The URL rule depends on the mode of the key that creates (a test key may use
 * http://localhost), so there is one schema per mode; the documented one is the test-mode schema.
 */
function sessionCreateSchema(livemode: boolean) {
  return z
    .object({
      amount_cents: z
        .number({ error: requiredOr(SESSION_CREATE_MESSAGES.amount) })
        .int({ error: SESSION_CREATE_MESSAGES.amount })
        .positive({ error: SESSION_CREATE_MESSAGES.amount })
        .meta({ description: "The cart amount in minor units; must fall within the limits of one of the merchant's enabled installment plans.", example: 25_000 }),
      currency: z
        .string({ error: requiredOr(SESSION_CREATE_MESSAGES.currencyFormat) })
        .superRefine((value, ctx) => {
          if (!CURRENCY_CODE_PATTERN.test(value)) ctx.addIssue({ code: 'custom', message: SESSION_CREATE_MESSAGES.currencyFormat });
          else if (!isSupportedCurrency(value)) ctx.addIssue({ code: 'custom', message: SESSION_CREATE_MESSAGES.currencyUnsupported });
        })
        .meta({ description: `ISO 4217 code in upper case; supported: ${SUPPORTED_CURRENCIES.join(', ')} (all with two decimals).`, enum: [...SUPPORTED_CURRENCIES] }),
      order_reference: wellFormedText(
        z.string({ error: requiredOr(SESSION_CREATE_MESSAGES.notText) }).trim().min(1, { error: SESSION_CREATE_MESSAGES.required }).max(ORDER_REFERENCE_MAX, { error: maxMessage(ORDER_REFERENCE_MAX) }),
      ).meta({ description: "The merchant's own order reference (the loan's purchase_reference). Surrounding spaces are trimmed." }),
      customer_email: optional(
        emailAddress(SESSION_CREATE_MESSAGES.email).max(CUSTOMER_EMAIL_MAX, { error: maxMessage(CUSTOMER_EMAIL_MAX) }).meta({ description: "The shopper's e-mail address; prefills the checkout form." }),
      ),
      customer_phone: optional(
        z.string({ error: SESSION_CREATE_MESSAGES.phone }).regex(E164_PATTERN, { error: SESSION_CREATE_MESSAGES.phone }).meta({ description: "The shopper's phone number in E.164 format (`+` and up to 15 digits); prefills the checkout form.", example: '+14155550123' }),
      ),
      purchase_description: optional(
        wellFormedText(z.string({ error: SESSION_CREATE_MESSAGES.notText }).trim().max(PURCHASE_DESCRIPTION_MAX, { error: maxMessage(PURCHASE_DESCRIPTION_MAX) })).meta({ description: 'Shown to the shopper on the checkout page (as text, escaped).' }),
      ),
      success_url: redirectUrl(livemode, 'Where the shopper is sent after checkout succeeds. https; http://localhost or http://127.0.0.1 only with a test key.'),
      cancel_url: redirectUrl(livemode, 'Where the shopper returns when cancelling or when checkout is unavailable. Same rule as success_url.'),
    })
    .meta({ id: 'BnplWidgetSessionCreate' });
}

const schemas = { test: sessionCreateSchema(false), live: sessionCreateSchema(true) };

/** The documented create body (test mode's URL rule; the live rule only narrows it to https). */
export const createWidgetSessionBody = schemas.test;

/** A validated, normalised create: what the service stores. */
export interface NewWidgetSession {
  amountCents: number;
  currency: string;
  orderReference: string;
  customerEmail: string | null;
  customerPhone: string | null;
  purchaseDescription: string | null;
  successUrl: string;
  cancelUrl: string;
}

export interface SessionCreateContext {
  livemode: boolean;
  /** The merchant's plans enabled now (MerchantPlanRepository.enabledFor). */
  enabledPlans: readonly InstallmentPlan[];
  /** Problems found outside the body (a malformed Idempotency-Key), reported in the same 422. */
  fields?: FieldErrors;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks every field (all problems in one ValidationError, 422) and the amount against the enabled plans. A body that is
 * not a JSON object is refused on `body`; a missing body reads as an empty one, so every required field is reported.
 */
export function validateNewWidgetSession(body: unknown, context: SessionCreateContext): NewWidgetSession {
  if (body !== undefined && !isRecord(body)) throw new ValidationError({ ...context.fields, body: [BODY_NOT_AN_OBJECT_MESSAGE] });
  const checked = checkInput(context.livemode ? schemas.live : schemas.test, body ?? {});
  const fields: FieldErrors = { ...context.fields, ...(checked.success ? {} : checked.fields) };
  const amount = isRecord(body) ? body.amount_cents : undefined;
  if (!fields.amount_cents && typeof amount === 'number') {
    const problem = financeableAmountProblem(context.enabledPlans, amount);
    if (problem) fields.amount_cents = [problem];
  }
  if (!checked.success || Object.keys(fields).length > 0) throw new ValidationError(fields);
  const input = checked.data;
  return {
    amountCents: input.amount_cents,
    currency: input.currency,
    orderReference: input.order_reference,
    customerEmail: input.customer_email ?? null,
    customerPhone: input.customer_phone ?? null,
    // An all-blank description is no description.
    purchaseDescription: input.purchase_description || null,
    successUrl: input.success_url,
    cancelUrl: input.cancel_url,
  };
}

