// Serves a service's OpenAPI document as JSON and a human docs page rendered from it by Swagger UI, self-hosted from
// the swagger-ui-dist package (no CDN). Every docs response carries a Content-Security-Policy that only allows 'self'
// (plus data: images, which Swagger UI's stylesheet uses for its icons); the page has no inline script or style.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express, RequestHandler, Router } from 'express';
import { serviceRouter } from './routing.js';

export interface ApiDocsOptions {
  /** The OpenAPI document (plain JSON value). */
  document: object;
  /** Where the JSON is served, e.g. `/api/v1/openapi.json`. */
  jsonPath: string;
  /** Where the page is served. Default `/docs`. */
  docsPath?: string;
  /** Page title. Default: the document's info.title. */
  title?: string;
}

export const API_DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Prefix of the page's static files; not API surface (route inventories ignore it). */
export function apiDocsAssetsPath(docsPath = '/docs'): string {
  return `${docsPath}/assets`;
}

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files of swagger-ui-dist that are served. */
const distFiles: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const secured: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', API_DOCS_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** Mounts `GET <jsonPath>`, `GET <docsPath>` and the page's assets under `<docsPath>/assets/`. */
export function mountApiDocs(app: Express | Router, options: ApiDocsOptions): void {
  const router = serviceRouter();
  const docsPath = options.docsPath ?? '/docs';
  const assets = apiDocsAssetsPath(docsPath);
  const json = JSON.stringify(options.document);
  const info = (options.document as { info?: { title?: unknown } }).info;
  const title = options.title ?? (typeof info?.title === 'string' ? info.title : 'API documentation');

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/docs.js"></script>
</body>
</html>
`;
  // No remote validator badge (it would call validator.swagger.io), deep links for sharing an operation.
  const init = `window.ui = SwaggerUIBundle(${JSON.stringify({
    url: options.jsonPath,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  })});\n`;

  router.get(options.jsonPath, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(json);
  });
  router.get(docsPath, secured, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html').send(html);
  });
  router.get(`${assets}/:file`, secured, (req, res, next) => {
    const file = String(req.params.file);
    if (file === 'docs.js') {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('text/javascript').send(init);
      return;
    }
    const contentType = Object.hasOwn(distFiles, file) ? distFiles[file] : undefined;
    if (!contentType) return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.sendFile(file, { root: swaggerUiDir, headers: { 'Content-Type': contentType } }, (error) => {
      if (error) next(error);
    });
  });
  app.use(router);
}
