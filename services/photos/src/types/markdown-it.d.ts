// markdown-it 15 ships no type declarations (and @types/markdown-it is not a dependency): the part of its API the pages
// renderer uses (modules/pages/page-render.ts), as documented at https://markdown-it.github.io/markdown-it/.
declare module 'markdown-it' {
  export interface Token {
    type: string;
    tag: string;
    content: string;
    attrs: Array<[string, string]> | null;
    children: Token[] | null;
    attrGet(name: string): string | null;
    attrSet(name: string, value: string): void;
  }

  export interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
    breaks?: boolean;
  }

  export type RenderRule = (tokens: Token[], idx: number, options: Options, env: object, self: Renderer) => string;

  export interface Renderer {
    rules: Record<string, RenderRule | undefined>;
    renderToken(tokens: Token[], idx: number, options: Options): string;
    renderInlineAsText(tokens: Token[], options: Options, env: object): string;
  }

  export default class MarkdownIt {
    constructor(presetName: 'commonmark' | 'default' | 'zero', options?: Options);
    validateLink: (url: string) => boolean;
    renderer: Renderer;
    utils: { escapeHtml(text: string): string };
    render(src: string, env?: object): string;
    parse(src: string, env: object): Token[];
  }
}
