// The customer inputs as zod schemas: the create body (with contacts) and the list's query. E-mail: zod's e-mail pattern.
// Phone: a lenient international format (the README's Decisions table, "Customer fields"): an optional leading +, then
// digits with spaces, parentheses, hyphens, dots or slashes between them, 7 to 15 digits in all (E.164's maximum).
import { integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';

export const CUSTOMERS_PER_PAGE = 25;
export const CUSTOMERS_PAGE_MAX = 10_000;
export const CUSTOMER_SEARCH_MAX = 191;
export const CUSTOMER_CONTACTS_MAX = 20;
export const CUSTOMER_NAME_MAX = 191;
export const CUSTOMER_NOTES_MAX = 5_000;
export const EMAIL_MAX = 254;
export const PHONE_MAX = 40;
export const PHONE_DIGITS_MIN = 7;
export const PHONE_DIGITS_MAX = 15;

export const EMAIL_MESSAGE = 'Must be an e-mail address, e.g. jane@example.com.';
export const PHONE_MESSAGE = `Must be a phone number: an optional +, then ${PHONE_DIGITS_MIN} to ${PHONE_DIGITS_MAX} digits, which spaces, ( ), -, . or / may separate.`;

const PHONE_SHAPE = /^\+?[0-9(]([0-9 ().\-/]*[0-9])?$/;

export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE_SHAPE.test(value) && digits >= PHONE_DIGITS_MIN && digits <= PHONE_DIGITS_MAX;
}

const maxMessage = (max: number) => ({ error: `Must be at most ${max} characters.` });
const requiredText = (max: number) => wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(max, maxMessage(max)));
/** Optional text; empty (after trimming) is stored as none. */
const optionalText = (max: number, description?: string) =>
  wellFormedText(z.string().trim().max(max, maxMessage(max))).nullable().optional().meta(description ? { description } : {});
const email = wellFormedText(z.string().trim().max(EMAIL_MAX, maxMessage(EMAIL_MAX)))
  .refine((value) => value === '' || z.regexes.email.test(value), { error: EMAIL_MESSAGE })
  .nullable()
  .optional();
const phone = wellFormedText(z.string().trim().max(PHONE_MAX, maxMessage(PHONE_MAX)))
  .refine((value) => value === '' || isPhoneNumber(value), { error: PHONE_MESSAGE })
  .nullable()
  .optional()
  .meta({ description: `As written (e.g. +64 9 123 4567 or (09) 123-4567): an optional +, ${PHONE_DIGITS_MIN}–${PHONE_DIGITS_MAX} digits, separators allowed.` });

export const customerContactBody = z
  .strictObject({
    name: requiredText(CUSTOMER_NAME_MAX),
    role: optionalText(100, 'e.g. Site manager, Accounts.'),
    email,
    phone,
  })
  .meta({ id: 'PhotosCustomerContactCreate' });

/** POST /api/v1/customers (the GraphQL input maps onto it). Unknown fields are refused. */
export const createCustomerBody = z
  .strictObject({
    name: requiredText(CUSTOMER_NAME_MAX).meta({ description: 'The customer: a person or an organisation.' }),
    company: optionalText(CUSTOMER_NAME_MAX),
    email,
    phone,
    address: z
      .strictObject({ street: optionalText(500), city: optionalText(191), postcode: optionalText(20), country: optionalText(100) })
      .nullable()
      .optional()
      .meta({ description: 'Postal address; every part optional (empty is stored as none).' }),
    notes: wellFormedText(z.string().max(CUSTOMER_NOTES_MAX, maxMessage(CUSTOMER_NOTES_MAX))).nullable().optional(),
    contacts: z
      .array(customerContactBody)
      .max(CUSTOMER_CONTACTS_MAX, { error: `At most ${CUSTOMER_CONTACTS_MAX} contacts.` })
      .nullable()
      .optional()
      .meta({ description: `Additional contacts, in the order given (at most ${CUSTOMER_CONTACTS_MAX}).` }),
  })
  .meta({ id: 'PhotosCustomerCreate' });
export type CreateCustomerBody = z.infer<typeof createCustomerBody>;
/** What CustomerService.create takes: the REST body and the GraphQL input have the same field names. */
export type CustomerInput = z.input<typeof createCustomerBody>;

export const listCustomersQuery = z.object({
  q: wellFormedText(z.string().trim().max(CUSTOMER_SEARCH_MAX, maxMessage(CUSTOMER_SEARCH_MAX)))
    .optional()
    .meta({
      description:
        'Searches name, company, e-mail, phone and city: case- and accent-insensitive substrings; every word must occur. A query of digits and phone punctuation (at least 3 digits) matches the phone by its digits ("555 01" finds "+1 (555) 012-3456"). Best match first, then by name.',
    }),
  page: integerQueryParam({ min: 1, max: CUSTOMERS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${CUSTOMERS_PER_PAGE} customers per page.` }),
});

/** A list query in the domain's terms (from REST once parsed, from GraphQL as it is). */
export interface CustomerListQuery {
  q?: string | undefined;
  page?: number | undefined;
}

/** A validated create, empty texts as null (what the service stores). */
export interface NewCustomer {
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  notes: string;
  contacts: Array<{ name: string; role: string | null; email: string | null; phone: string | null }>;
}

const orNull = (value: string | null | undefined): string | null => (value ? value : null);

export function newCustomerFrom(body: CreateCustomerBody): NewCustomer {
  return {
    name: body.name,
    company: orNull(body.company),
    email: orNull(body.email),
    phone: orNull(body.phone),
    street: orNull(body.address?.street),
    city: orNull(body.address?.city),
    postcode: orNull(body.address?.postcode),
    country: orNull(body.address?.country),
    notes: body.notes ?? '',
    contacts: (body.contacts ?? []).map((contact) => ({ name: contact.name, role: orNull(contact.role), email: orNull(contact.email), phone: orNull(contact.phone) })),
  };
}
