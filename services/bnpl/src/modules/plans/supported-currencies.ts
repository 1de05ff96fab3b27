// The currencies a session (and so a loan) may be in. Every one has two decimals (ISO 4217 minor unit 2), so
// amount_cents means cents everywhere and one table of plan limits (plan-catalogue.ts) serves them all; a currency with
// another minor unit (JPY 0, BHD 3) would need limits of its own before it could be added here.
export const SUPPORTED_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'] as const;
export type SupportedCurrency = (typeof SUPPORTED_CURRENCIES)[number];

/** An ISO 4217 alphabetic code as written: three upper-case letters. */
export const CURRENCY_CODE_PATTERN = /^[A-Z]{3}$/;

export function isSupportedCurrency(value: string): value is SupportedCurrency {
  return (SUPPORTED_CURRENCIES as readonly string[]).includes(value);
}
