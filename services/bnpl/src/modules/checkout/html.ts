// HTML building for the checkout pages: a tagged template that escapes every interpolated value unless it is already
// SafeHtml (the result of another `html` template), so escaping is the default rather than a call to remember.
// Attribute values in the templates are always double-quoted, which escaping `"` makes safe.

/** Markup that is already escaped (built by `html`). */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: every value escaped, SafeHtml and arrays of it inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]) : ''), ''));
}

/**
 * A URL a link may point to: only absolute http(s) URLs. Anything else (a `javascript:` or `data:` URL stored by a
 * buggy client) is no link at all, whatever the session's validation let through.
 */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The origin of an http(s) URL (`https://shop.example`), or null. */
export function urlOrigin(url: string): string | null {
  const href = safeHref(url);
  return href === null ? null : new URL(href).origin;
}
