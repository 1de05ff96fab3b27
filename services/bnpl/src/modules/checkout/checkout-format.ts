// How the checkout page writes money and dates: fixed English formatting (the page is in English), amounts from
// integer minor units with the currency's own number of decimals, due dates as calendar days (they are UTC dates).

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'symbol' });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** `12345, 'USD'` → `$123.45`; `12345, 'EUR'` → `€123.45`; `12345, 'GBP'` → `£123.45`. */
export function formatMoney(amountCents: number, currency: string): string {
  const format = moneyFormat(currency);
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Amounts here are at most a few million minor units: exact as a double, and rounded to `decimals` by Intl.
  return format.format(amountCents / 10 ** decimals);
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** `2026-11-23` → `23 Nov 2026`. */
export function formatDueDate(isoDate: string): string {
  return dayFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/** Basis points as a percentage: `600` → `6%`, `1250` → `12.5%`. */
export function formatBps(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`;
}
