// The page renderer (modules/pages/page-render.ts) on its own: Markdown to HTML with no executable markup whatever the
// source holds, links limited to http(s), mailto and relative destinations, images to https; and the excerpt.
import { describe, expect, it } from '@jest/globals';
import { ELLIPSIS, EXCERPT_MAX, isSafeLinkDestination, pageExcerpt, renderPageBody } from '../src/modules/pages/index.js';

const ALLOWED_TAGS = new Set([
  'p', 'a', 'img', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'br',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 's',
]);
const ALLOWED_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title', 'rel', 'class', 'start', 'style']);

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** What a browser would take as the URL's scheme: control characters and whitespace dropped, as browsers do. */
function browserScheme(url: string): string | null {
  const cleaned = [...decodeEntities(url)].filter((char) => char.charCodeAt(0) > 0x20).join('');
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Fails unless the HTML holds only allowed tags and attributes, no event handler, URLs only with http(s)/mailto or no
 * scheme, and no `<` outside those tags (so nothing else can become markup).
 */
function expectNoExecutableMarkup(html: string): void {
  const tags = [...html.matchAll(/<\/?([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)];
  for (const [, name, attributes] of tags) {
    expect({ html, tag: name!.toLowerCase(), allowed: ALLOWED_TAGS.has(name!.toLowerCase()) }).toMatchObject({ allowed: true });
    for (const [, attribute, value] of (attributes ?? '').matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      expect({ html, attribute, allowed: ALLOWED_ATTRIBUTES.has(attribute!.toLowerCase()) }).toMatchObject({ allowed: true });
      if (attribute === 'href' || attribute === 'src') {
        const scheme = browserScheme(value ?? '');
        expect({ html, scheme, allowed: scheme === null || ['http', 'https', 'mailto'].includes(scheme) }).toMatchObject({ allowed: true });
      }
      if (attribute === 'src') expect({ html, src: browserScheme(value ?? '') }).toMatchObject({ src: 'https' });
      if (attribute === 'style') expect(value).toMatch(/^text-align:(left|right|center)$/);
    }
  }
  const withoutTags = html.replace(/<\/?([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g, '');
  expect({ html, rest: withoutTags.includes('<') }).toEqual({ html, rest: false });
}

const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<div onclick="alert(1)">x</div>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x]( javascript:alert(1) "title")',
  '[x](<javascript:alert(1)>)',
  '[x](javascript&#58;alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1))',
  '[x](java&#x09;script:alert(1))',
  '[x](jav&#x0A;ascript:alert(1))',
  '[x](\u0001javascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](VBScript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](DATA:text/html,<script>alert(1)</script>)',
  '[x](data:image/png;base64,iVBORw0KGgo=)',
  '[x](file:///etc/passwd)',
  '[x](https://ok.test" onmouseover="alert(1))',
  '[x][1]\n\n[1]: javascript:alert(1)',
  '[x][1]\n\n[1]: JAVASCRIPT:alert(1) "t"',
  '<javascript:alert(1)>',
  '<vbscript:msgbox(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  'javascript:alert(1)',
  'see www.example.test/?q=<script>alert(1)</script>',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x](http://plain-http.test/x.png)',
  '![x](//evil.test/x.png)',
  '![a" onerror="alert(1)](https://ok.test/x.png)',
  '![x](https://ok.test/x.png" onerror="alert(1))',
  '[<img src=x onerror=alert(1)>](https://ok.test)',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '```"><script>alert(1)</script>\ncode\n```',
  '| a | b |\n|---|---|\n| <script>alert(1)</script> | [x](javascript:alert(1)) |',
  '> <img src=x onerror=alert(1)>',
  '* [x](javascript:alert(1))\n* <b onmouseover=alert(1)>b</b>',
  '<!-- --><script>alert(1)</script>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

describe('renderPageBody: XSS payloads', () => {
  it.each(XSS_PAYLOADS.map((payload) => [payload]))('%j renders with no executable markup', (payload) => {
    expectNoExecutableMarkup(renderPageBody(payload));
    // Inside a paragraph, list or table too.
    expectNoExecutableMarkup(renderPageBody(`# Title\n\nBefore ${payload} after\n\n- ${payload}\n`));
  });

  it('shows raw HTML as text', () => {
    expect(renderPageBody('Hello <script>alert(1)</script>')).toBe('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
  });

  it('does not make a link of a refused destination, in any casing or encoding', () => {
    for (const payload of ['[x](javascript:alert(1))', '[x](JaVaScRiPt:alert(1))', '[x](&#106;avascript:alert(1))', '[x](vbscript:x)', '[x](data:text/html,x)']) {
      expect(renderPageBody(payload)).not.toContain('<a');
    }
    expect(renderPageBody('<javascript:alert(1)>')).toBe('<p>&lt;javascript:alert(1)&gt;</p>\n');
  });

  it('shows a non-https image as its alt text', () => {
    expect(renderPageBody('![site plan](http://plain-http.test/x.png)')).toBe('<p>site plan</p>\n');
    // A refused destination is no image at all: the source shows as text.
    expect(renderPageBody('![<b>plan</b>](javascript:alert(1))')).toBe('<p>![&lt;b&gt;plan&lt;/b&gt;](javascript:alert(1))</p>\n');
  });
});

describe('renderPageBody: what is kept', () => {
  it('renders Markdown: headings, emphasis, lists, code, tables', () => {
    const html = renderPageBody('# Site diary\n\n**Framing** done, _roof_ next.\n\n1. one\n2. two\n\n`code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(html).toContain('<h1>Site diary</h1>');
    expect(html).toContain('<strong>Framing</strong> done, <em>roof</em> next.');
    expect(html).toContain('<ol>\n<li>one</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<table>');
    expectNoExecutableMarkup(html);
  });

  it('links http(s), mailto and relative destinations, with rel nofollow noopener noreferrer', () => {
    const rel = 'rel="nofollow noopener noreferrer"';
    expect(renderPageBody('[spec](https://example.test/a?b=1&c=2)')).toBe(`<p><a href="https://example.test/a?b=1&amp;c=2" ${rel}>spec</a></p>\n`);
    expect(renderPageBody('[mail](mailto:site@example.test)')).toBe(`<p><a href="mailto:site@example.test" ${rel}>mail</a></p>\n`);
    expect(renderPageBody('[up](/api/v1/pages/2) [top](#top) [q](?page=2)')).toBe(`<p><a href="/api/v1/pages/2" ${rel}>up</a> <a href="#top" ${rel}>top</a> <a href="?page=2" ${rel}>q</a></p>\n`);
    expect(renderPageBody('See https://example.test/x and <https://example.test/y>')).toBe(
      `<p>See <a href="https://example.test/x" ${rel}>https://example.test/x</a> and <a href="https://example.test/y" ${rel}>https://example.test/y</a></p>\n`,
    );
  });

  it('shows https images', () => {
    expect(renderPageBody('![plan](https://example.test/plan.png "Plan")')).toBe('<p><img src="https://example.test/plan.png" alt="plan" title="Plan"></p>\n');
  });

  it('decides link destinations by scheme', () => {
    expect(['https://a.test', 'HTTP://a.test', 'mailto:a@b.test', '/x:y', 'x/y:z', '#a:b', '?a=b:c', 'plain'].every(isSafeLinkDestination)).toBe(true);
    expect(['javascript:x', 'JAVASCRIPT:x', 'vbscript:x', 'data:x', 'file:x', 'java%09script:x', 'tel:123', 'ftp://a'].some(isSafeLinkDestination)).toBe(false);
  });
});

describe('pageExcerpt', () => {
  it('is the body as plain text, whitespace collapsed', () => {
    expect(pageExcerpt('# Site diary\n\n**Framing** done,\n_roof_ next. [Plan](https://x.test) ![photo](https://x.test/p.jpg)\n\n- a\n- b')).toBe(
      'Site diary Framing done, roof next. Plan photo a b',
    );
    expect(pageExcerpt('')).toBe('');
    // Raw HTML is text in the body, so it is text in the excerpt (a plain string: escape it where it becomes HTML).
    expect(pageExcerpt('<b>bold</b>')).toBe('<b>bold</b>');
  });

  it(`keeps at most ${EXCERPT_MAX} characters, cut at a word boundary, then an ellipsis`, () => {
    const words = Array.from({ length: 80 }, (_v, i) => `word${i}`).join(' ');
    const excerpt = pageExcerpt(words);
    expect(excerpt.endsWith(ELLIPSIS)).toBe(true);
    const kept = excerpt.slice(0, -ELLIPSIS.length);
    expect(kept.length).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(words.startsWith(`${kept} `)).toBe(true);
    expect(pageExcerpt('x'.repeat(EXCERPT_MAX))).toBe('x'.repeat(EXCERPT_MAX));
    expect(pageExcerpt('x'.repeat(EXCERPT_MAX + 1))).toBe(`${'x'.repeat(EXCERPT_MAX)}${ELLIPSIS}`);
  });

  it('never cuts an emoji in half', () => {
    const excerpt = pageExcerpt(`${'x'.repeat(EXCERPT_MAX - 1)}😀 tail`);
    expect(excerpt).toBe(`${'x'.repeat(EXCERPT_MAX - 1)}${ELLIPSIS}`);
  });
});
