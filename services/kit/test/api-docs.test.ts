import { describe, expect, it } from '@jest/globals';
import { Router, type Express } from 'express';
import request from 'supertest';
import { z } from 'zod';
import {
  API_DOCS_CONTENT_SECURITY_POLICY,
  AuthenticationError,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  HttpClientError,
  InternalError,
  MalformedJsonError,
  MalformedRequestError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  UnsupportedMediaTypeError,
  ValidationError,
  apiDocsAssetsPath,
  compareRoutesWithDocument,
  createServiceApiDocument,
  createServiceApp,
  defineApiRoute,
  envelopeErrorBody,
  envelopeErrorFormat,
  listRegisteredRoutes,
  messageErrorBody,
  messageErrorFormat,
  mountApiDocs,
  mountApiRoute,
  parseInput,
  serializeApiDocument,
  type ApiRoute,
  type DomainError,
} from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const widgetInput = z.object({ name: z.string().min(1) });
const widgetApi = {
  create: defineApiRoute({
    method: 'post',
    path: '/api/v9/widgets',
    errors: [401, 422],
    operation: {
      operationId: 'createWidget',
      summary: 'Create a widget',
      security: [{ bearer: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: widgetInput } } },
      responses: { '201': { description: 'Created.', content: { 'application/json': { schema: z.object({ name: z.string() }) } } } },
    },
  }),
  remove: defineApiRoute({
    method: 'delete',
    path: '/api/v9/widgets/:id',
    errors: [404],
    operation: { operationId: 'deleteWidget', security: [{ bearer: [] }], responses: { '204': { description: 'Deleted.' } } },
  }),
};

function documentFor(routes: readonly ApiRoute[]) {
  return createServiceApiDocument({
    title: 'Widgets <test>',
    version: '1.0.0',
    restBase: '/api/v9',
    errorBody: envelopeErrorBody,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    routes,
  });
}

async function buildApp(extra?: (app: Express) => void): Promise<Express> {
  const document = documentFor(Object.values(widgetApi));
  return createServiceApp({
    service: 'kit-test',
    logger: capturingLogger('silent').logger,
    errorFormat: envelopeErrorFormat,
    readiness: [],
    configure(app) {
      const router = Router();
      mountApiRoute(router, widgetApi.create, (req, res) => {
        res.status(201).json(parseInput(widgetInput, req.body));
      });
      mountApiRoute(router, widgetApi.remove, (_req, res) => {
        res.status(204).end();
      });
      app.use(router);
      app.use('/graphql', (_req, res) => {
        res.json({ data: null });
      });
      mountApiDocs(app, { document, jsonPath: '/api/v9/openapi.json' });
      extra?.(app);
    },
  });
}

describe('createServiceApiDocument', () => {
  const document = documentFor(Object.values(widgetApi));

  it('renders an OpenAPI 3.1 document with the zod request schema, OpenAPI paths and the standard routes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths ?? {}).sort()).toEqual(
      ['/api/v9/openapi.json', '/api/v9/widgets', '/api/v9/widgets/{id}', '/docs', '/graphql', '/healthz', '/readyz'].sort(),
    );
    const create = document.paths?.['/api/v9/widgets']?.post;
    expect(create?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] } } },
    });
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(['201', '400', '401', '413', '415', '422', '500']);
    expect(create?.responses?.['401']).toMatchObject({
      headers: { 'WWW-Authenticate': { schema: { const: 'Bearer' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    // Without a body there are no body errors; a malformed URL is possible everywhere.
    expect(Object.keys(document.paths?.['/api/v9/widgets/{id}']?.delete?.responses ?? {}).sort()).toEqual(['204', '400', '404', '500']);
    expect(document.components?.schemas?.Error).toMatchObject({ properties: { error: { type: 'object' } } });
    expect(document.paths?.['/graphql']?.post?.operationId).toBe('graphql');
    expect(document.components?.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
  });

  it('documents 400 on every route (standard ones too, keeping their own 400), and 429 under rate-limited prefixes', () => {
    const limited = createServiceApiDocument({
      title: 'Widgets',
      version: '1.0.0',
      restBase: '/api/v9',
      errorBody: envelopeErrorBody,
      securitySchemes: {},
      routes: Object.values(widgetApi),
      rateLimitedPaths: ['/api/v9/widgets'],
    });
    const statuses = (path: string, method: 'get' | 'post' | 'delete') => Object.keys(limited.paths?.[path]?.[method]?.responses ?? {});
    expect(statuses('/api/v9/widgets', 'post')).toEqual(['201', '400', '401', '413', '415', '422', '429', '500']);
    expect(statuses('/api/v9/widgets/{id}', 'delete')).toEqual(['204', '400', '404', '429', '500']);
    expect(statuses('/api/v9/openapi.json', 'get')).toEqual(['200', '400']);
    expect(statuses('/readyz', 'get')).toEqual(['200', '400', '503']);
    expect(statuses('/graphql', 'post')).toEqual(['200', '400', '413', '415', '422']);
    expect(limited.paths?.['/graphql']?.post?.responses?.['400']).toEqual({ description: 'The request is not a valid GraphQL request.' });
    expect(limited.paths?.['/healthz']?.get?.responses?.['400']).toMatchObject({ description: expect.stringMatching(/percent-decode to UTF-8 text without NUL/) });
  });

  it('refuses a route defined twice and serializes deterministically', () => {
    expect(() => documentFor([widgetApi.create, widgetApi.create])).toThrow(/POST \/api\/v9\/widgets is defined twice/);
    expect(serializeApiDocument(document)).toBe(serializeApiDocument(documentFor(Object.values(widgetApi))));
    expect(serializeApiDocument(document).endsWith('}\n')).toBe(true);
  });
});

describe('error bodies', () => {
  const errors: DomainError[] = [
    new ValidationError({ name: ['This field is required.'] }),
    new AuthenticationError(),
    new ForbiddenError('Lacks projects:read.', { missing_scope: 'projects:read' }),
    new NotFoundError(),
    new BusinessRuleError('Refund exceeds the sale.', { amount: ['Too large.'] }),
    new ConflictError('Already captured.'),
    new RateLimitedError(30),
    new MalformedJsonError(),
    new UnsupportedMediaTypeError('text/plain'),
    new PayloadTooLargeError('1kb'),
    new RouteNotFoundError('GET', '/nope'),
    new MalformedRequestError('bad URL', 'The URL is bad.'),
    new MethodNotAllowedError('PUT', '/a', ['GET', 'HEAD']),
    new HttpClientError(416, 'Range Not Satisfiable'),
    new InternalError(new Error('boom')),
  ];
  it.each(errors.map((error) => [error.kind, error] as const))('%s renders to the documented schemas in both formats', (_kind, error) => {
    expect(messageErrorBody.strict().safeParse(messageErrorFormat().render(error).body).success).toBe(true);
    expect(envelopeErrorBody.safeParse(envelopeErrorFormat.render(error).body).success).toBe(true);
  });
});

describe('mountApiDocs', () => {
  it('serves the document as JSON at the given path', async () => {
    const app = await buildApp();
    const res = await request(app).get('/api/v9/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(documentFor(Object.values(widgetApi)))));
  });

  it('serves a self-hosted Swagger UI page with a self-only CSP and no inline script or remote URL', async () => {
    const app = await buildApp();
    const page = await request(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect(API_DOCS_CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'/);
    expect(API_DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(page.text).toContain('<title>Widgets &lt;test&gt;</title>');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>|<style|style=/);
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/docs.js']);

    const bundle = await request(app).get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.headers['content-security-policy']).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await request(app).get('/docs/assets/swagger-ui.css').expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const init = await request(app).get('/docs/assets/docs.js').expect(200);
    expect(init.text).toContain('"url":"/api/v9/openapi.json"');
    expect(init.text).toContain('"validatorUrl":null');
  });

  it('serves only the allow-listed files of swagger-ui-dist', async () => {
    const app = await buildApp();
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await request(app).get(`/docs/assets/${file}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
    }
  });
});

describe('route inventory', () => {
  const ignoreAssets = { ignore: (route: { path: string }) => route.path.startsWith(`${apiDocsAssetsPath()}/`) };

  it('lists routes of nested routers and path-mounted middleware, in OpenAPI notation', async () => {
    const routes = listRegisteredRoutes(await buildApp());
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/healthz' },
        { method: 'GET', path: '/readyz' },
        { method: 'POST', path: '/api/v9/widgets' },
        { method: 'DELETE', path: '/api/v9/widgets/{id}' },
        { method: 'ALL', path: '/graphql' },
        { method: 'GET', path: '/api/v9/openapi.json' },
        { method: 'GET', path: '/docs' },
        { method: 'GET', path: '/docs/assets/{file}' },
      ]),
    );
  });

  it('agrees when every served route is documented and the other way round', async () => {
    const app = await buildApp();
    expect(compareRoutesWithDocument(app, documentFor(Object.values(widgetApi)), ignoreAssets)).toEqual({ undocumented: [], unserved: [] });
  });

  it('reports a served route missing from the document and a documented route nobody serves', async () => {
    const app = await buildApp((app) => {
      app.patch('/api/v9/widgets/:id', (_req, res) => {
        res.end();
      });
    });
    const drift = compareRoutesWithDocument(app, documentFor([widgetApi.create]), ignoreAssets);
    expect(drift).toEqual({ undocumented: ['DELETE /api/v9/widgets/{id}', 'PATCH /api/v9/widgets/{id}'], unserved: [] });

    const orphan = defineApiRoute({ method: 'put', path: '/api/v9/gadgets/:id', operation: { responses: { '200': { description: 'ok' } } } });
    const drift2 = compareRoutesWithDocument(app, documentFor([...Object.values(widgetApi), orphan]), ignoreAssets);
    expect(drift2.unserved).toEqual(['PUT /api/v9/gadgets/{id}']);
  });
});
