// The shopper's confirm form (POST /checkout/{token}, urlencoded): the chosen plan, e-mail, optional phone and the
// terms checkbox. Messages are written for the shopper; the page shows each next to its field.
import { checkInput, isWellFormedText, type FieldErrors } from '@tributary/kit';
import { z } from 'zod';
import { PLAN_IDS, type PlanId } from '../plans/index.js';

/** The form's field names (the page's `name` attributes). */
export const SHOPPER_FIELDS = { plan: 'plan_id', email: 'email', phone: 'phone', terms: 'terms' } as const;
/** The terms checkbox's value when ticked. */
export const TERMS_ACCEPTED = 'accepted';

export const EMAIL_MAX_LENGTH = 254;
/** Local part, @, a domain with a dot; no spaces. Deliverability is the merchant's and the shopper's business. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
/** E.164: +, country code, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;

export const SHOPPER_MESSAGES = {
  plan: 'Choose a payment plan.',
  planNotOffered: 'This plan is not available for this purchase. Choose one of the plans shown.',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, like name@example.com.',
  phoneInvalid: 'Enter the phone number in international format, like +14155550123, or leave it empty.',
  terms: 'Accept the terms to continue.',
} as const;

/** What the shopper entered, as text, for re-rendering the form. */
export interface ShopperFormValues {
  planId: string;
  email: string;
  phone: string;
  termsAccepted: boolean;
}

export interface ShopperDetails {
  planId: PlanId;
  email: string;
  /** E.164, or null when left empty. */
  phone: string | null;
}

export type CheckedShopperForm = { ok: true; details: ShopperDetails; values: ShopperFormValues } | { ok: false; errors: FieldErrors; values: ShopperFormValues };

/** A form field's text: a repeated field counts by its first value, a missing one is empty. */
function fieldText(body: Record<string, unknown>, name: string): string {
  const raw = body[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' ? value : '';
}

/** Spaces, dots, dashes and parentheses people type inside a phone number are dropped: `+1 (415) 555-0123` → `+14155550123`. */
export function normalizePhone(text: string): string {
  return text.replace(/[\s().-]/g, '');
}

const shopperFormSchema = z.object({
  planId: z.enum(PLAN_IDS, { error: SHOPPER_MESSAGES.plan }),
  email: z
    .string()
    .min(1, { error: SHOPPER_MESSAGES.emailRequired })
    .max(EMAIL_MAX_LENGTH, { error: SHOPPER_MESSAGES.emailInvalid })
    .regex(EMAIL_PATTERN, { error: SHOPPER_MESSAGES.emailInvalid })
    .refine(isWellFormedText, { error: SHOPPER_MESSAGES.emailInvalid }),
  phone: z.string().refine((phone) => phone === '' || E164_PATTERN.test(phone), { error: SHOPPER_MESSAGES.phoneInvalid }),
  termsAccepted: z.literal(true, { error: SHOPPER_MESSAGES.terms }),
});

/** The form's field name of each checked property, so errors sit next to the right field. */
const FIELD_OF: Record<string, string> = { planId: SHOPPER_FIELDS.plan, email: SHOPPER_FIELDS.email, phone: SHOPPER_FIELDS.phone, termsAccepted: SHOPPER_FIELDS.terms };

export function checkShopperForm(body: unknown): CheckedShopperForm {
  const form = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const values: ShopperFormValues = {
    planId: fieldText(form, SHOPPER_FIELDS.plan),
    email: fieldText(form, SHOPPER_FIELDS.email).trim(),
    phone: fieldText(form, SHOPPER_FIELDS.phone).trim(),
    termsAccepted: fieldText(form, SHOPPER_FIELDS.terms) === TERMS_ACCEPTED,
  };
  const checked = checkInput(shopperFormSchema, { ...values, phone: normalizePhone(values.phone) });
  if (!checked.success) {
    const errors: FieldErrors = {};
    for (const [property, messages] of Object.entries(checked.fields)) errors[FIELD_OF[property] ?? property] = messages.slice(0, 1);
    return { ok: false, errors, values };
  }
  const { planId, email, phone } = checked.data;
  return { ok: true, details: { planId, email, phone: phone === '' ? null : phone }, values };
}
