// The shape of a random token a service issues (`ws_` + 32 letters and digits): declared once, so the check of a
// presented token, its generation and the log redaction of capability tokens (http/capabilities.ts) agree.

const ALPHABETS = {
  /** [A-Za-z0-9] (randomChars). */
  alphanumeric: 'A-Za-z0-9',
  /** [A-Za-z0-9_-] (base64url without padding). */
  base64url: 'A-Za-z0-9_-',
} as const;

export interface TokenFormat {
  /** Fixed text every token starts with (`ws_`); '' when none. */
  prefix: string;
  /** The characters after the prefix. */
  alphabet: keyof typeof ALPHABETS;
  /** How many characters follow the prefix. */
  length: number;
}

const escapeForRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function body(format: TokenFormat): string {
  return `${escapeForRegExp(format.prefix)}[${ALPHABETS[format.alphabet]}]{${format.length}}`;
}

/** Matches exactly one whole token of `format`. */
export function tokenPattern(format: TokenFormat): RegExp {
  return new RegExp(`^${body(format)}$`);
}

/** Finds every token of `format` inside longer text (not inside a longer run of its characters); global. */
export function tokenSearchPattern(format: TokenFormat): RegExp {
  const character = `[${ALPHABETS[format.alphabet]}]`;
  return new RegExp(`(?<!${character})${body(format)}(?!${character})`, 'g');
}
