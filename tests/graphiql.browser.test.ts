// The gateway's GraphiQL page in a real headless Chromium, with the three real services (fresh databases, seeded
// demo data) behind the real gateway, and no network but loopback: every non-loopback request the browser attempts
// is aborted and recorded, and the test fails if there was one. The page renders from the gateway's own files, its
// headers editor holds the three X-*-Authorization headers with the demo credentials it was given, the Dashboard tab
// runs against all three subgraphs, GraphiQL's settings dialog opens (its <style> needs the page's nonce), and
// nothing is logged as an error or violates the CSP. Then every example tab runs through the gateway over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as bnpl from '@tributary/bnpl';
import * as crypto from '@tributary/crypto';
import { GATEWAY_GRAPHIQL_EXAMPLES, gatewayEnv, startGateway } from '@tributary/gateway';
import { createLogger, loadConfig, type RunningServer } from '@tributary/kit';
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { allowLoopbackOnly, launchChromium, watchPage } from '@tributary/kit/testing/browser';
import * as photos from '@tributary/photos';
import type { Browser } from 'playwright-core';

const cleanup: Array<() => Promise<void>> = [];
let gateway: RunningServer;
let browser: Browser;
let demoHeaders: Record<string, string>;

async function startSeeded<T>(definition: Parameters<typeof startServiceHarness>[0], seed: (h: ServiceHarness) => Promise<T>): Promise<{ url: string; credentials: T }> {
  const h = await startServiceHarness(definition);
  cleanup.unshift(() => h.close());
  return { url: `${h.service.url}/graphql`, credentials: await seed(h) };
}

beforeAll(async () => {
  const [b, c, p] = await Promise.all([
    startSeeded(bnpl.bnplService, (h) => bnpl.seedDemoData(h.orm.em.fork())),
    startSeeded(crypto.cryptoService, (h) => crypto.seedDemoData(h.orm.em.fork())),
    startSeeded(photos.photosService, (h) => photos.seedDemoData(h.orm.em.fork())),
  ]);
  demoHeaders = {
    'X-Bnpl-Authorization': `Bearer ${b.credentials.dashboard_token}`,
    'X-Crypto-Authorization': `Bearer ${c.credentials.api_key}`,
    'X-Photos-Authorization': `Bearer ${p.credentials.token}`,
  };
  const config = loadConfig(gatewayEnv, {
    PORT: '1',
    BNPL_SUBGRAPH_URL: b.url,
    CRYPTO_SUBGRAPH_URL: c.url,
    PHOTOS_SUBGRAPH_URL: p.url,
    SHUTDOWN_GRACE_MS: '500',
    // What `npm start` passes: each subgraph's demo credential as its Authorization value.
    GRAPHIQL_DEMO_AUTHORIZATION: JSON.stringify({
      bnpl: demoHeaders['X-Bnpl-Authorization'],
      crypto: demoHeaders['X-Crypto-Authorization'],
      photos: demoHeaders['X-Photos-Authorization'],
    }),
  });
  gateway = await startGateway({ ...config, PORT: 0 }, createLogger({ service: 'gateway', level: 'silent' }));
  cleanup.unshift(() => gateway.close());
  browser = await launchChromium();
  cleanup.unshift(() => browser.close());
}, 120_000);

afterAll(async () => {
  for (const step of cleanup) await step();
});

/** The text of a GraphiQL editor (CodeMirror 5 keeps its instance on its wrapper element). */
function editorValue(selector: string): string {
  const wrapper = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(`${selector} .CodeMirror`);
  return (wrapper as { CodeMirror: { getValue(): string } }).CodeMirror.getValue();
}

type GraphqlBody = { data?: Record<string, { name?: string } | unknown[] | null> | null; errors?: unknown[] };

describe('gateway GraphiQL page in Chromium, offline but for loopback', () => {
  it('renders, holds the three credential headers, runs the Dashboard query on all three subgraphs', async () => {
    const context = await browser.newContext();
    const refused = await allowLoopbackOnly(context);
    const page = await context.newPage();
    const problems = await watchPage(page);

    const response = await page.goto(`${gateway.url}/graphql`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Tributary gateway · GraphiQL');
    await page.waitForSelector('.graphiql-container .graphiql-execute-button', { timeout: 15_000 });
    expect(await page.locator('.graphiql-tab-button').allTextContents()).toEqual([
      'Dashboard',
      'BnplMerchantApiKeys',
      'CryptoPaymentRequests',
      'CryptoWebhookDeliveries',
      'PhotosTeamProjects',
    ]);
    expect(JSON.parse(await page.evaluate(editorValue, '.graphiql-editor-tool .graphiql-editor:not(.hidden)'))).toEqual(demoHeaders);

    await page.click('.graphiql-execute-button');
    await page.locator('.result-window', { hasText: 'Demo Builders' }).waitFor({ timeout: 20_000 });
    const result = JSON.parse(await page.evaluate(editorValue, '.result-window')) as GraphqlBody;
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      bnplMerchant: { name: 'Demo Shop' },
      cryptoAccount: { name: 'Demo Merchant', status: 'ACTIVE' },
      photosTeam: { name: 'Demo Builders' },
    });
    expect(result.data?.photosProjects).toHaveLength(4);

    // GraphiQL's dialogs insert a <style> (scroll lock): allowed only through the page's per-response nonce.
    await page.click('button[aria-label="Open settings dialog"]');
    await page.getByRole('dialog').waitFor({ timeout: 5_000 });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 });

    expect(refused).toEqual([]);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
    await context.close();
  }, 90_000);

  it('every example tab runs through the gateway without errors (depth and cost limits included)', async () => {
    for (const example of GATEWAY_GRAPHIQL_EXAMPLES) {
      const res = await fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...demoHeaders },
        body: JSON.stringify({ query: example.query, variables: example.variables }),
      });
      const body = (await res.json()) as GraphqlBody;
      expect({ query: example.query, status: res.status, errors: body.errors }).toEqual({ query: example.query, status: 200, errors: undefined });
      expect(Object.values(body.data ?? {}).every((value) => value !== null)).toBe(true);
    }
  }, 30_000);
});
