// `@tributary/kit/testing/openapi`: the OpenAPI drift tests every service runs with its own inputs. A separate entry
// point because it defines Jest tests (it imports @jest/globals, which only loads inside Jest).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServiceEnv } from '../config/index.js';
import { createLogger } from '../logging/index.js';
import { API_DOCS_CONTENT_SECURITY_POLICY, apiDocsAssetsPath } from '../http/index.js';
import { compareRoutesWithDocument, documentedRoutes, methodsServedAt, routersMatchingOtherwise, serializeApiDocument, type OpenApiDocument } from '../openapi/index.js';
import { staticAssetPrefixes } from '../runtime/compose-app.js';
import type { ServiceDefinition } from '../runtime/definition.js';
import { otherSpellings } from './path-spellings.js';
import { startServiceHarness, testServiceConfig, type ServiceHarness } from './service-harness.js';

export interface OpenApiSuiteOptions<C extends ServiceEnv> {
  definition: ServiceDefinition<C, object>;
  /** The document the service builds. */
  document: () => OpenApiDocument;
  /** The checked-in file's text (schema/openapi/<name>.json). */
  checkedIn: () => string;
  restBase: string;
  docsPath: string;
  /** One authenticated request against seeded data whose body must match its documented schema exactly. */
  sample: {
    path: string;
    headers: Record<string, string>;
    schema: { safeParse(value: unknown): { data?: unknown; error?: unknown } };
  };
}

/** Defines `<name> OpenAPI document`: checked-in file fresh, routes == document, docs served under CSP, a real body matches. */
export function describeOpenApiDocument<C extends ServiceEnv>(options: OpenApiSuiteOptions<C>): void {
  const { definition, restBase, docsPath } = options;
  const name = definition.name;
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await startServiceHarness(definition);
    await definition.seed(h.orm.em.fork());
  });
  afterAll(async () => {
    await h?.close();
  });

  describe(`${name} OpenAPI document`, () => {
    it(`schema/openapi/${name}.json is up to date (regenerate with \`npm run openapi\`)`, () => {
      expect(options.checkedIn()).toBe(serializeApiDocument(options.document()));
    });

    it('describes every route the Express app serves, and serves every route it describes', async () => {
      const config = testServiceConfig(definition, 'postgres://unused@127.0.0.1/unused');
      const built = await definition.buildApp({ orm: h.orm, logger: createLogger({ service: name, level: 'silent' }), config });
      try {
        const assetPrefixes = staticAssetPrefixes(docsPath);
        const drift = compareRoutesWithDocument(built.app, options.document(), { ignore: (route) => assetPrefixes.some((prefix) => route.path.startsWith(`${prefix}/`)) });
        expect(drift).toEqual({ undocumented: [], unserved: [] });
      } finally {
        await built.close();
      }
    });

    it('every router matches paths case-sensitively and strictly, like the guards mounted before it', async () => {
      const config = testServiceConfig(definition, 'postgres://unused@127.0.0.1/unused');
      const built = await definition.buildApp({ orm: h.orm, logger: createLogger({ service: name, level: 'silent' }), config });
      try {
        expect(routersMatchingOtherwise(built.app)).toEqual([]);
      } finally {
        await built.close();
      }
    });

    it('only the documented spelling of a route reaches a handler: other spellings answer 404', async () => {
      const config = testServiceConfig(definition, 'postgres://unused@127.0.0.1/unused');
      const built = await definition.buildApp({ orm: h.orm, logger: createLogger({ service: name, level: 'silent' }), config });
      const answers: string[] = [];
      try {
        for (const route of documentedRoutes(options.document())) {
          for (const { path: spelling } of otherSpellings(route.path)) {
            expect([route.method, spelling, [...methodsServedAt(built.app, spelling)]]).toEqual([route.method, spelling, []]);
            const res = await fetch(`${h.service.url}${spelling}`, { method: route.method, redirect: 'manual' });
            await res.arrayBuffer();
            answers.push(`${route.method} ${spelling} ${res.status}`);
          }
        }
      } finally {
        await built.close();
      }
      expect(answers.filter((answer) => !answer.endsWith(' 404'))).toEqual([]);
    });

    it('serves the document at ${REST_BASE}/openapi.json and the docs page at /docs under a self-only CSP', async () => {
      const json = await fetch(`${h.service.url}${restBase}/openapi.json`);
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual(JSON.parse(serializeApiDocument(options.document())));
      const page = await fetch(`${h.service.url}${docsPath}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
      expect(await page.text()).toContain(`<script src="${apiDocsAssetsPath(docsPath)}/swagger-ui-bundle.js"></script>`);
      const bundle = await fetch(`${h.service.url}${apiDocsAssetsPath(docsPath)}/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      await bundle.arrayBuffer();
    });

    it('a real response matches its documented schema', async () => {
      const res = await fetch(`${h.service.url}${options.sample.path}`, { headers: options.sample.headers });
      expect(res.status).toBe(200);
      const body: unknown = await res.json();
      const parsed = options.sample.schema.safeParse(body);
      expect(parsed.error).toBeUndefined();
      // zod strips unknown keys: equality means the body has no field the document does not describe.
      expect(parsed.data).toEqual(body);
    });
  });
}

