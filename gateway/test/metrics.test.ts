// The gateway's /metrics over real HTTP: its /graphql requests in the kit's request histogram under service "gateway".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { METRICS_PATH, createLogger, loadConfig, type RunningServer } from '@tributary/kit';
import { gatewayEnv } from '../src/config.js';
import { startGateway } from '../src/gateway.js';

let gateway: RunningServer;
beforeAll(async () => {
  // Closed subgraph ports: `{ __typename }` is answered by the gateway itself.
  const closed = 'http://127.0.0.1:9/graphql';
  const config = loadConfig(gatewayEnv, { BNPL_SUBGRAPH_URL: closed, CRYPTO_SUBGRAPH_URL: closed, PHOTOS_SUBGRAPH_URL: closed, SHUTDOWN_GRACE_MS: '500' });
  gateway = await startGateway({ ...config, PORT: 0 }, createLogger({ service: 'gateway', level: 'silent' }));
});
afterAll(async () => {
  await gateway?.close();
});

describe('gateway /metrics', () => {
  it('counts /graphql requests by route template and status under service="gateway"', async () => {
    const query = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
    const scrape = await fetch(`${gateway.url}${METRICS_PATH}`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^tributary_http_request_duration_seconds_count\{service="gateway",method="POST",route="\/graphql",status_code="200"\} 1$/m);
  });
});
