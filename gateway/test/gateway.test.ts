import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig, type RunningServer } from '@tributary/kit';
import { SERVICE_NAMES } from '@tributary/workflows';
import { gatewayEnv } from '../src/config.js';
import { credentialsFromClient } from '../src/credentials.js';
import { startGateway } from '../src/gateway.js';
import { GATEWAY_GRAPHIQL_EXAMPLES, authorizationHeaderOf, graphiqlHeaders } from '../src/graphiql.js';

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
      GRAPHQL_MAX_DIRECTIVES: '2',
      GRAPHQL_MAX_TOKENS: '40',
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

  it('refuses too many directives with TOO_MANY_DIRECTIVES', async () => {
    const { status, body } = await post('{ photosTeam { id @include(if: true) name @include(if: true) createdAt @include(if: true) } }');
    expect(status).toBe(400);
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['TOO_MANY_DIRECTIVES']);
  });

  it('refuses more tokens than GRAPHQL_MAX_TOKENS with TOO_MANY_TOKENS', async () => {
    // 41 tokens: `{ photosTeam {` and `} }`, and 37 field names (cost and depth within their limits until parsed).
    const { status, body } = await post(`{ photosTeam { ${Array.from({ length: 37 }, () => 'id').join(' ')} } }`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ message: 'Token limit of 40 exceeded.', extensions: { code: 'TOO_MANY_TOKENS' } })]);
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

describe('GraphiQL page (GET /graphql in a browser)', () => {
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const DEMO = { bnpl: 'Bearer dt_demo-bnpl-value', crypto: 'Bearer ck_demo.crypto-value', photos: 'Bearer ph_demo-photos-value' };
  const PLACEHOLDERS = {
    'X-Bnpl-Authorization': 'Bearer <bnpl dashboard token>',
    'X-Crypto-Authorization': 'Bearer <crypto KEY_ID>.<SECRET>',
    'X-Photos-Authorization': 'Bearer <photos access token>',
  };
  const gateways: RunningServer[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
  });

  /** A gateway over unreachable subgraphs (the page needs none of them) with `env` added to its config. */
  async function start(env: Record<string, string>): Promise<RunningServer> {
    const unreachable = 'http://127.0.0.1:9/graphql';
    const config = loadConfig(gatewayEnv, { PORT: '1', BNPL_SUBGRAPH_URL: unreachable, CRYPTO_SUBGRAPH_URL: unreachable, PHOTOS_SUBGRAPH_URL: unreachable, SHUTDOWN_GRACE_MS: '500', ...env });
    const gateway = await startGateway({ ...config, PORT: 0 }, createLogger({ service: 'gateway', level: 'silent' }));
    gateways.push(gateway);
    return gateway;
  }

  async function pageConfig(gateway: RunningServer): Promise<{ html: string; config: { endpoint: string; headers: Record<string, string>; examples: unknown[] } }> {
    const res = await fetch(`${gateway.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self' 'nonce-[^']+'; /);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const block = /<script type="application\/json" id="graphiql-config">([^<]*)<\/script>/.exec(html)?.[1];
    return { html, config: JSON.parse(block!) };
  }

  it('names, for each subgraph, the client header that reaches it as Authorization', () => {
    expect(SERVICE_NAMES.map(authorizationHeaderOf)).toEqual(['X-Bnpl-Authorization', 'X-Crypto-Authorization', 'X-Photos-Authorization']);
    expect(graphiqlHeaders({ crypto: DEMO.crypto })).toEqual({ ...PLACEHOLDERS, 'X-Crypto-Authorization': DEMO.crypto });
  });

  it('shows the three headers with placeholders and the example tabs when no demo credentials are configured', async () => {
    const { config } = await pageConfig(await start({}));
    expect(config).toEqual({ endpoint: '/graphql', headers: PLACEHOLDERS, examples: GATEWAY_GRAPHIQL_EXAMPLES });
  });

  it('fills in GRAPHIQL_DEMO_AUTHORIZATION outside production', async () => {
    const { config } = await pageConfig(await start({ GRAPHIQL_DEMO_AUTHORIZATION: JSON.stringify(DEMO) }));
    expect(config.headers).toEqual({ 'X-Bnpl-Authorization': DEMO.bnpl, 'X-Crypto-Authorization': DEMO.crypto, 'X-Photos-Authorization': DEMO.photos });
  });

  it('never shows the demo credentials when NODE_ENV=production', async () => {
    const { html, config } = await pageConfig(await start({ NODE_ENV: 'production', GRAPHIQL_DEMO_AUTHORIZATION: JSON.stringify(DEMO) }));
    expect(config.headers).toEqual(PLACEHOLDERS);
    for (const value of Object.values(DEMO)) expect(html).not.toContain(value.slice('Bearer '.length));
  });

  it('leaves a GET asking for JSON, and POST, to Apollo', async () => {
    const gateway = await start({});
    const get = await fetch(`${gateway.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-security-policy')).toBeNull();
    expect(await get.json()).toEqual({ data: { __typename: 'Query' } });
    const post = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: BROWSER_ACCEPT }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(await post.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
