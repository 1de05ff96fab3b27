import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig, type RunningServer } from '@tributary/kit';
import { gatewayEnv } from '../src/config.js';
import { credentialsFromClient } from '../src/credentials.js';
import { startGateway } from '../src/gateway.js';

describe('credentialsFromClient', () => {
  it('gives each subgraph only its own header, renamed to Authorization, and never the client Authorization', () => {
    const creds = credentialsFromClient({
      authorization: 'Bearer client-own',
      cookie: 'session=1',
      'x-bnpl-authorization': 'Bearer bnpl',
      'x-merchant-public-key': 'pk_test_x',
      'x-crypto-authorization': 'Bearer crypto',
      'x-photos-authorization': 'Bearer photos',
    });
    expect(creds).toEqual({
      bnpl: { authorization: 'Bearer bnpl', 'x-merchant-public-key': 'pk_test_x' },
      crypto: { authorization: 'Bearer crypto' },
      photos: { authorization: 'Bearer photos' },
    });
  });

  it('omits subgraphs whose header is absent or empty', () => {
    expect(credentialsFromClient({ 'x-crypto-authorization': 'Bearer c', 'x-photos-authorization': '' })).toEqual({ crypto: { authorization: 'Bearer c' } });
  });
});

describe('config', () => {
  it('defaults to port 4000 and the default subgraph URLs, and names a bad variable', () => {
    const config = loadConfig(gatewayEnv, {});
    expect(config.PORT).toBe(4000);
    expect(config.CRYPTO_SUBGRAPH_URL).toBe('http://127.0.0.1:4002/graphql');
    expect(() => loadConfig(gatewayEnv, { BNPL_SUBGRAPH_URL: 'ftp://x' })).toThrow(/BNPL_SUBGRAPH_URL/);
    expect(() => loadConfig(gatewayEnv, { GRAPHQL_MAX_DEPTH: '0' })).toThrow(/GRAPHQL_MAX_DEPTH/);
  });
});

// Limits are checked at validation, before any query plan runs; these subgraph URLs point at closed ports so a
// query that slipped through would fail with a different error than the one asserted.
describe('query limits (gateway over the checked-in supergraph)', () => {
  let gateway: RunningServer;
  beforeAll(async () => {
    const config = loadConfig(gatewayEnv, {
      PORT: '1',
      BNPL_SUBGRAPH_URL: 'http://127.0.0.1:9/graphql',
      CRYPTO_SUBGRAPH_URL: 'http://127.0.0.1:9/graphql',
      PHOTOS_SUBGRAPH_URL: 'http://127.0.0.1:9/graphql',
      GRAPHQL_MAX_DEPTH: '2',
      GRAPHQL_MAX_COST: '20',
      GRAPHQL_MAX_ALIASES: '2',
      SHUTDOWN_GRACE_MS: '500',
    });
    gateway = await startGateway({ ...config, PORT: 0 }, createLogger({ service: 'gateway', level: 'silent' }));
  });
  afterAll(async () => {
    await gateway?.close();
  });

  async function post(query: string) {
    const res = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
  }

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH with QUERY_TOO_DEEP', async () => {
    const { status, body } = await post('{ photosProjects { coordinates { lat } team { id } } }');
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.map((e) => e.extensions?.code)).toContain('QUERY_TOO_DEEP');
  });

  it('refuses a query costlier than GRAPHQL_MAX_COST with QUERY_TOO_COSTLY', async () => {
    const { status, body } = await post(
      '{ photosTeam { id name createdAt } cryptoAccount { id name status createdAt } bnplMerchant { id name createdAt } photosProjects { id name status address } }',
    );
    expect(status).toBe(400);
    const codes = body.errors?.map((e) => e.extensions?.code);
    expect(codes).toContain('QUERY_TOO_COSTLY');
    expect(codes).not.toContain('QUERY_TOO_DEEP');
  });

  it('refuses too many aliases with TOO_MANY_ALIASES', async () => {
    const { status, body } = await post('{ a: photosTeam { id } b: photosTeam { id } c: photosTeam { id } }');
    expect(status).toBe(400);
    expect(body.errors?.map((e) => e.extensions?.code)).toContain('TOO_MANY_ALIASES');
  });

  it('lets a query within the limits through to planning (here: subgraphs unreachable, so no data)', async () => {
    const { body } = await post('{ photosTeam { id } }');
    const codes = body.errors?.map((e) => e.extensions?.code) ?? [];
    expect(codes).not.toContain('QUERY_TOO_DEEP');
    expect(codes).not.toContain('QUERY_TOO_COSTLY');
    expect(body.errors?.length).toBeGreaterThan(0);
  });

  it('answers /healthz, and /readyz 503 naming the subgraphs that are not ready', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { failing: string[] }).failing.sort()).toEqual(['bnpl', 'crypto', 'photos']);
  });
});
