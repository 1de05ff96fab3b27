// photos' GraphiQL page in a real headless Chromium with no network but loopback: it renders from the service's own
// files, shows the demo credential it was given in the headers editor, and runs its example query against the real
// subgraph. Then, over plain HTTP, the same service under NODE_ENV=production shows only the placeholder.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tributary/kit';
import { startService } from '@tributary/kit/runtime';
import { startServiceHarness, testServiceConfig, type ServiceHarness } from '@tributary/kit/testing';
import { allowLoopbackOnly, launchChromium, watchPage } from '@tributary/kit/testing/browser';
import type { Browser } from 'playwright-core';
import { GRAPHIQL_AUTHORIZATION_PLACEHOLDER } from '../src/graphql/graphiql-examples.js';
import { DEMO_ACCESS_TOKEN, seedDemoData } from '../src/seed.js';
import { photosService } from '../src/service.js';

const DEMO_AUTHORIZATION = JSON.stringify({ photos: `Bearer ${DEMO_ACCESS_TOKEN}` });
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

let h: ServiceHarness;
let browser: Browser;

beforeAll(async () => {
  h = await startServiceHarness(photosService, { env: { GRAPHIQL_DEMO_AUTHORIZATION: DEMO_AUTHORIZATION } });
  await seedDemoData(h.orm.em.fork());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** The text of a GraphiQL editor (CodeMirror 5 keeps its instance on its wrapper element). */
function editorValue(selector: string): string {
  const wrapper = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(`${selector} .CodeMirror`);
  return (wrapper as { CodeMirror: { getValue(): string } }).CodeMirror.getValue();
}

describe('photos GraphiQL page', () => {
  it('renders offline, holds the demo Authorization header, and runs its example query', async () => {
    const context = await browser.newContext();
    const refused = await allowLoopbackOnly(context);
    const page = await context.newPage();
    const problems = await watchPage(page);

    const response = await page.goto(`${h.service.url}/graphql`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('photos subgraph · GraphiQL');
    await page.waitForSelector('.graphiql-container .graphiql-execute-button', { timeout: 15_000 });
    expect(await page.locator('.graphiql-tab-button').allTextContents()).toEqual(['TeamProjects', 'NearbyDecision', 'DevicesAndTokens', 'OfficeChecklistsAndTasks', 'ProjectReports', 'OfficePagesAndCustomers']);
    expect(JSON.parse(await page.evaluate(editorValue, '.graphiql-editor-tool .graphiql-editor:not(.hidden)'))).toEqual({
      Authorization: `Bearer ${DEMO_ACCESS_TOKEN}`,
    });

    await page.click('.graphiql-execute-button');
    await page.locator('.result-window', { hasText: 'Demo Builders' }).waitFor({ timeout: 15_000 });
    const result = JSON.parse(await page.evaluate(editorValue, '.result-window')) as { data: { photosTeam: { name: string }; photosProjects: unknown[] }; errors?: unknown };
    expect(result.errors).toBeUndefined();
    expect(result.data.photosTeam.name).toBe('Demo Builders');
    expect(result.data.photosProjects).toHaveLength(4);

    expect(refused).toEqual([]);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
    await context.close();
  }, 60_000);

  it('shows the placeholder, never the demo credential, under NODE_ENV=production', async () => {
    // Production needs a real SECRETS_ENCRYPTION_KEY (media URLs are signed with a key derived from it).
    const config = testServiceConfig(photosService, h.db.url, { NODE_ENV: 'production', GRAPHIQL_DEMO_AUTHORIZATION: DEMO_AUTHORIZATION, SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64') });
    const production = await startService(photosService, { ...config, PORT: 0 }, createLogger({ service: 'photos', level: 'silent' }));
    try {
      const html = await (await fetch(`${production.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } })).text();
      expect(html).not.toContain(DEMO_ACCESS_TOKEN);
      const block = /<script type="application\/json" id="graphiql-config">([^<]*)<\/script>/.exec(html)?.[1];
      expect((JSON.parse(block!) as { headers: unknown }).headers).toEqual({ Authorization: GRAPHIQL_AUTHORIZATION_PLACEHOLDER });
      // The development page of the same service does carry it (the difference is NODE_ENV alone).
      expect(await (await fetch(`${h.service.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } })).text()).toContain(DEMO_ACCESS_TOKEN);
    } finally {
      await production.close();
    }
  }, 30_000);
});
