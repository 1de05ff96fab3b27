// How a customer search `q` becomes patterns (pure; the README's Decisions table, "Customer search"). Each pattern is a
// substring the customer's search document must contain (the database lowercases and unaccents it like the document,
// then escapes it and wraps it as `%…%`: photos_search.contains_pattern). A query that looks like part of a phone number (digits with spaces,
// +, (), -, . or /) is one pattern of its digits, so "555 01" finds "+1 (555) 012-3456"; any other query is split on
// whitespace and every word must occur (a word that is a phone fragment, like "012-3456", counts by its digits).

/** The most words a query is split into (the rest are ignored): each is one more trigram index condition. */
export const CUSTOMER_SEARCH_WORDS_MAX = 8;
/** Fewest digits for a query to count as part of a phone number. */
export const PHONE_QUERY_MIN_DIGITS = 3;

const PHONE_FRAGMENT = /^[+\d\s().\-/]+$/;

export interface CustomerSearchPlan {
  /** Substrings the search document must all contain (before the database's lowercasing and unaccenting); results are
   * ranked by where the first one occurs. */
  patterns: string[];
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

function isPhoneFragment(text: string): boolean {
  return PHONE_FRAGMENT.test(text) && digitsOf(text).length >= PHONE_QUERY_MIN_DIGITS;
}

/** The search plan of `q`; null when q holds nothing to search for (the list is then unfiltered). */
export function customerSearchPlan(q: string | undefined): CustomerSearchPlan | null {
  const text = (q ?? '').trim();
  if (text === '') return null;
  if (isPhoneFragment(text)) return { patterns: [digitsOf(text)] };
  const words = text
    .split(/\s+/)
    .slice(0, CUSTOMER_SEARCH_WORDS_MAX)
    .map((word) => (isPhoneFragment(word) ? digitsOf(word) : word));
  return { patterns: [...new Set(words)] };
}
