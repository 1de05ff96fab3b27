// A page's Markdown as HTML that is safe to put into a dashboard, and its plain-text excerpt (pure; the README's
// Decisions table, "Page bodies"). markdown-it with raw HTML off: any HTML in the source is text, escaped. Links (also
// autolinks, linkified URLs and reference definitions) keep only http:, https: and mailto: destinations, or relative
// ones (a path, ?query or #anchor, with no scheme); anything else is not made a link. Images show only from https: URLs;
// any other image shows its alt text. Every link gets rel="nofollow noopener noreferrer".
import MarkdownIt, { type MarkdownIt as MarkdownItInstance, type Token } from 'markdown-it';

/** Longest excerpt before the ellipsis, characters (cut at a word boundary). */
export const EXCERPT_MAX = 200;
export const ELLIPSIS = '…';

const LINK_SCHEMES = ['http', 'https', 'mailto'];
const LINK_REL = 'nofollow noopener noreferrer';

/**
 * Whether a (markdown-it normalised, i.e. entity-decoded and percent-encoded) destination may be a link. A colon before
 * the first /, ? or # makes the text before it a scheme (browsers read "java%09script:" as a path, but it is refused
 * anyway): it must be one of LINK_SCHEMES.
 */
export function isSafeLinkDestination(url: string): boolean {
  const value = url.trim();
  const colon = value.indexOf(':');
  if (colon === -1) return true;
  const firstDelimiter = value.search(/[/?#]/);
  if (firstDelimiter !== -1 && firstDelimiter < colon) return true;
  return LINK_SCHEMES.includes(value.slice(0, colon).toLowerCase());
}

function isSafeImageSource(src: string): boolean {
  return /^https:\/\/[^/\s]/i.test(src);
}

function createRenderer(): MarkdownItInstance {
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
  md.validateLink = isSafeLinkDestination;
  const renderImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, idx, options, env, self) =>
    isSafeImageSource(String(tokens[idx]!.attrGet('src') ?? ''))
      ? renderImage(tokens, idx, options, env, self)
      : md.utils.escapeHtml(self.renderInlineAsText(tokens[idx]!.children ?? [], options, env));
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet('rel', LINK_REL);
    return self.renderToken(tokens, idx, options);
  };
  return md;
}

const markdown = createRenderer();

/** The body as HTML (already escaped: no raw HTML, no script-capable URL). */
export function renderPageBody(body: string): string {
  return markdown.render(body);
}

/** The text a reader sees of inline tokens: text, code and image alt texts; line breaks as spaces. */
function inlineText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'text' || token.type === 'code_inline') return token.content;
      if (token.type === 'image') return inlineText(token.children ?? []);
      return token.type === 'softbreak' || token.type === 'hardbreak' ? ' ' : '';
    })
    .join('');
}

/** The text a reader sees, without markup; blocks separated by a space. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'inline') return inlineText(token.children ?? []);
      if (token.type === 'fence' || token.type === 'code_block') return token.content;
      return token.type.endsWith('_close') ? ' ' : '';
    })
    .join('');
}

/** Plain text of the body, whitespace collapsed, at most EXCERPT_MAX characters cut at a word boundary plus "…". */
export function pageExcerpt(body: string): string {
  const text = plainText(markdown.parse(body, {})).replace(/\s+/g, ' ').trim();
  if (text.length <= EXCERPT_MAX) return text;
  const cut = text.slice(0, EXCERPT_MAX + 1);
  const lastSpace = cut.lastIndexOf(' ');
  // A word longer than half the excerpt is cut inside it rather than leaving a stub.
  let end = lastSpace >= EXCERPT_MAX / 2 ? lastSpace : EXCERPT_MAX;
  // Never half of a surrogate pair (an emoji at the cut).
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}
