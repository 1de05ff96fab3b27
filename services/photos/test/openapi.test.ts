import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_DOCS_CONTENT_SECURITY_POLICY, apiDocsAssetsPath, compareRoutesWithDocument, createLogger, loadConfig, serializeApiDocument } from '@tributary/kit';
import { readOpenApiDocument } from '@tributary/schema';
import { DOCS_PATH, REST_BASE, photosApiDocument } from '../src/api-document.js';
import { projectListResponse } from '../src/modules/projects/project.openapi.js';
import { DEMO_ACCESS_TOKEN, seedDemoData } from '../src/seed.js';
import { photosEnv, buildApp } from '../src/service.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

describe('photos OpenAPI document', () => {
  it('schema/openapi/photos.json is up to date (regenerate with `npm run openapi`)', () => {
    expect(readOpenApiDocument('photos')).toBe(serializeApiDocument(photosApiDocument()));
  });

  it('describes every route the Express app serves, and serves every route it describes', async () => {
    const config = loadConfig(photosEnv, { PORT: '1', DATABASE_URL: 'postgres://unused@127.0.0.1/unused', TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
    const built = await buildApp({ orm: h.orm, logger: createLogger({ service: 'photos', level: 'silent' }), config });
    try {
      const drift = compareRoutesWithDocument(built.app, photosApiDocument(), { ignore: (route) => route.path.startsWith(`${apiDocsAssetsPath(DOCS_PATH)}/`) });
      expect(drift).toEqual({ undocumented: [], unserved: [] });
    } finally {
      await built.close();
    }
  });

  it('serves the document at ${REST_BASE}/openapi.json and the docs page at /docs under a self-only CSP', async () => {
    const json = await fetch(`${h.service.url}${REST_BASE}/openapi.json`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(JSON.parse(serializeApiDocument(photosApiDocument())));
    const page = await fetch(`${h.service.url}${DOCS_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain(`<script src="${apiDocsAssetsPath(DOCS_PATH)}/swagger-ui-bundle.js"></script>`);
    const bundle = await fetch(`${h.service.url}${apiDocsAssetsPath(DOCS_PATH)}/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    await bundle.arrayBuffer();
  });

  it('a real response matches its documented schema', async () => {
    const res = await fetch(`${h.service.url}/api/v1/projects`, { headers: { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` } });
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    const parsed = projectListResponse.safeParse(body);
    expect(parsed.error).toBeUndefined();
    // zod strips unknown keys: equality means the body has no field the document does not describe.
    expect(parsed.data).toEqual(body);
  });
});
