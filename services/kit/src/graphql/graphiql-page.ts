// GraphiQL on `GET /graphql` for browsers, self-hosted: the npm package's prebuilt UMD bundle (graphiql 4, CodeMirror
// based) on React 18's UMD builds, every file served by this process from node_modules, no CDN. graphiql 5 was not
// chosen: its Monaco editor injects <style> elements and style attributes that a CSP without 'unsafe-inline' blocks,
// and it needs a bundler and web workers. The page has no inline script or style; its configuration (endpoint,
// headers, example tabs) is a JSON data block read by a same-origin script. Other requests to the path (POST, GET
// asking for JSON) pass on to Apollo.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response, Router } from 'express';
import { serviceRouter } from '../http/routing.js';
import type { Logger } from '../logging/index.js';
import { SUBGRAPH_PATH } from './subgraph-path.js';

/** One GraphiQL tab: a named operation (the name is the tab's title) and its variables. */
export interface GraphiqlExample {
  query: string;
  variables?: Record<string, unknown>;
}

export interface GraphiqlPageOptions {
  /** The page's title. */
  title: string;
  /** Header name -> value the headers editor starts with (demo credentials or placeholders). Never logged. */
  headers: Readonly<Record<string, string>>;
  /** One tab each, in order. */
  examples: readonly GraphiqlExample[];
  /** The GraphQL endpoint, where the page is served too. Default SUBGRAPH_PATH. */
  path?: string;
}

/** Service name -> the Authorization value of its demo credential (GRAPHIQL_DEMO_AUTHORIZATION). */
export type DemoAuthorization = Readonly<Record<string, string | undefined>>;

/**
 * The demo credentials a page may show: GRAPHIQL_DEMO_AUTHORIZATION, except when NODE_ENV=production, where it is
 * ignored with a warning that names the variable (never its values): a production page shows placeholders only.
 */
export function graphiqlDemoAuthorization(
  config: { NODE_ENV?: string | undefined; GRAPHIQL_DEMO_AUTHORIZATION?: DemoAuthorization | undefined },
  logger?: Logger,
): DemoAuthorization {
  if (!config.GRAPHIQL_DEMO_AUTHORIZATION) return {};
  if (config.NODE_ENV === 'production') {
    logger?.warn('GRAPHIQL_DEMO_AUTHORIZATION is ignored: GraphiQL never shows demo credentials when NODE_ENV=production');
    return {};
  }
  return config.GRAPHIQL_DEMO_AUTHORIZATION;
}

/** Prefix of the page's static files; not API surface (route inventories ignore it). */
export const GRAPHIQL_ASSETS_PATH = '/graphiql/assets';

/**
 * Same-origin script, style and fetch only. data: images and fonts: GraphiQL's stylesheet embeds its fonts and a few
 * icons as data: URLs. The page's own response adds a per-response style nonce: GraphiQL's dialogs (Radix) insert one
 * <style> element to lock page scrolling, and take its nonce from `__webpack_nonce__`, which graphiql-page.js sets.
 */
export function graphiqlContentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    styleNonce ? `style-src 'self' 'nonce-${styleNonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const requireFromHere = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(requireFromHere.resolve(`${name}/package.json`));
/** src/graphql/static when run from source (tests), dist/graphql/static when built (the kit's build copies it). */
const staticDir = fileURLToPath(new URL('./static/', import.meta.url));

const javascript = 'text/javascript; charset=utf-8';
const css = 'text/css; charset=utf-8';

/** The only files served: name under GRAPHIQL_ASSETS_PATH -> where it lives and its content type. */
const assetFiles: Record<string, { file: string; contentType: string }> = {
  'react.production.min.js': { file: path.join(packageDir('react'), 'umd', 'react.production.min.js'), contentType: javascript },
  'react-dom.production.min.js': { file: path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'), contentType: javascript },
  'graphiql.min.js': { file: path.join(packageDir('graphiql'), 'graphiql.min.js'), contentType: javascript },
  'graphiql.min.css': { file: path.join(packageDir('graphiql'), 'graphiql.min.css'), contentType: css },
  'graphiql-page.js': { file: path.join(staticDir, 'graphiql-page.js'), contentType: javascript },
  'graphiql-page.css': { file: path.join(staticDir, 'graphiql-page.css'), contentType: css },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** JSON that cannot end its <script> data block (or open a comment) early. */
const jsonForScriptBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page; `styleNonce` rides on graphiql-page.js's <script> (read there as document.currentScript.nonce). */
function renderGraphiqlPage(options: GraphiqlPageOptions, styleNonce: string): string {
  const endpoint = options.path ?? SUBGRAPH_PATH;
  const config = { endpoint, headers: options.headers, examples: options.examples };
  const asset = (name: keyof typeof assetFiles) => `${GRAPHIQL_ASSETS_PATH}/${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<link rel="stylesheet" href="${asset('graphiql-page.css')}">
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script type="application/json" id="graphiql-config">${jsonForScriptBlock(config)}</script>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('graphiql-page.js')}" nonce="${styleNonce}"></script>
</body>
</html>
`;
}

/** Apollo's own test for its landing page: a GET whose Accept prefers HTML over the GraphQL response types. */
function prefersHtml(req: Request): boolean {
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

function secure(res: Response, styleNonce?: string): void {
  res.setHeader('Content-Security-Policy', graphiqlContentSecurityPolicy(styleNonce));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** `GET <path>` (HTML-preferring requests only) and the page's files under GRAPHIQL_ASSETS_PATH; mount before Apollo. */
export function graphiqlPage(options: GraphiqlPageOptions): Router {
  const router = serviceRouter();
  router.get(options.path ?? SUBGRAPH_PATH, (req, res, next) => {
    if (!prefersHtml(req)) return next();
    const styleNonce = randomBytes(16).toString('base64');
    secure(res, styleNonce);
    // The page may carry demo credentials, and its nonce is single-use: never cached.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept');
    res.type('text/html').send(renderGraphiqlPage(options, styleNonce));
  });
  router.get(`${GRAPHIQL_ASSETS_PATH}/:file`, (req, res, next) => {
    const name = String(req.params.file);
    const asset = Object.hasOwn(assetFiles, name) ? assetFiles[name] : undefined;
    if (!asset) return next();
    secure(res);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.sendFile(asset.file, { headers: { 'Content-Type': asset.contentType } }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}
