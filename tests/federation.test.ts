// The whole graph over real HTTP: the three real services on their own fresh PostgreSQL databases, and the real
// gateway in front. A tap in front of each service's Express app records the headers its /graphql receives, so
// credential isolation is asserted on what each subgraph actually saw.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import * as bnpl from '@tributary/bnpl';
import * as crypto from '@tributary/crypto';
import { startGateway } from '@tributary/gateway';
import { gatewayEnv } from '@tributary/gateway';
import * as photos from '@tributary/photos';
import { createLogger, loadConfig, migrateUp, startHttpServer, type RunningServer } from '@tributary/kit';
import type { ServiceDefinition } from '@tributary/kit/runtime';
import { createTestDatabase, testServiceConfig, type TestDatabase } from '@tributary/kit/testing';

type Name = 'bnpl' | 'crypto' | 'photos';
const services = { bnpl, crypto, photos } as const;
// One type for the three (each definition's own env type differs; the test only loads each one's config).
const definitions: Record<Name, ServiceDefinition> = { bnpl: bnpl.bnplService, crypto: crypto.cryptoService, photos: photos.photosService } as never;
const logger = createLogger({ service: 'system-test', level: 'silent' });

const seen: Record<Name, IncomingHttpHeaders[]> = { bnpl: [], crypto: [], photos: [] };
const cleanup: Array<() => Promise<void>> = [];
const urls = {} as Record<Name, string>;
const orms = {} as Record<Name, Awaited<ReturnType<typeof crypto.openDatabase>>>;
let gateway: RunningServer;
let creds: { bnpl: bnpl.BnplDemoCredentials; crypto: crypto.CryptoDemoCredentials; photos: photos.PhotosDemoCredentials };

async function startService(name: Name): Promise<unknown> {
  const svc = services[name];
  const db: TestDatabase = await createTestDatabase(`system_${name}`);
  cleanup.unshift(() => db.drop());
  const orm = await svc.openDatabase(db.url, logger);
  cleanup.unshift(() => orm.close());
  orms[name] = orm as never;
  await migrateUp(orm);
  const credentials = await svc.seedDemoData(orm.em.fork());
  // Each service's own env schema (rate limits, secrets...), with test values.
  const config = { ...testServiceConfig(definitions[name], db.url), PORT: 0 };
  const built = await svc.buildApp({ orm, logger, config: config as never });
  const tap: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/graphql')) seen[name].push({ ...req.headers });
    (built.app as unknown as RequestListener)(req, res);
  };
  const server = await startHttpServer(tap, { port: 0, host: '127.0.0.1', logger, graceMs: 500, onClose: [built.close] });
  cleanup.unshift(() => server.close());
  urls[name] = `${server.url}/graphql`;
  return credentials;
}

beforeAll(async () => {
  const [b, c, p] = await Promise.all([startService('bnpl'), startService('crypto'), startService('photos')]);
  creds = { bnpl: b as bnpl.BnplDemoCredentials, crypto: c as crypto.CryptoDemoCredentials, photos: p as photos.PhotosDemoCredentials };
  const config = loadConfig(gatewayEnv, {
    PORT: '1',
    BNPL_SUBGRAPH_URL: urls.bnpl,
    CRYPTO_SUBGRAPH_URL: urls.crypto,
    PHOTOS_SUBGRAPH_URL: urls.photos,
    SHUTDOWN_GRACE_MS: '500',
  });
  gateway = await startGateway({ ...config, PORT: 0 }, logger);
  cleanup.unshift(() => gateway.close());
}, 120_000);

afterAll(async () => {
  for (const step of cleanup) await step();
});

const ALL_THREE = `{
  bnplMerchant { id name settlementCadence }
  cryptoAccount { id name status }
  photosTeam { id name }
  photosProjects { id name coordinates { lat lng } }
}`;

type GqlBody = { data?: Record<string, unknown> | null; errors?: Array<{ message: string; path?: string[]; extensions?: { code?: string; serviceName?: string } }> };

async function query(headers: Record<string, string>, body = ALL_THREE): Promise<{ status: number; body: GqlBody }> {
  for (const list of Object.values(seen)) list.length = 0;
  const res = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: body }),
  });
  return { status: res.status, body: (await res.json()) as GqlBody };
}

const validHeaders = () => ({
  'x-bnpl-authorization': `Bearer ${creds.bnpl.dashboard_token}`,
  'x-crypto-authorization': `Bearer ${creds.crypto.api_key}`,
  'x-photos-authorization': `Bearer ${creds.photos.token}`,
});
const CLIENT_ONLY_HEADERS = ['x-bnpl-authorization', 'x-crypto-authorization', 'x-photos-authorization'];

describe('federated graph', () => {
  it('the gateway is ready once every subgraph is', async () => {
    const res = await fetch(`${gateway.url}/readyz`);
    expect(await res.json()).toMatchObject({ status: 'ready', checks: { bnpl: 'ok', crypto: 'ok', photos: 'ok' } });
  });

  it('answers one query touching all three subgraphs with valid credentials', async () => {
    const { status, body } = await query(validHeaders());
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data).toMatchObject({
      bnplMerchant: { id: creds.bnpl.merchant_id, name: 'Demo Shop', settlementCadence: 'WEEKLY' },
      cryptoAccount: { id: String(creds.crypto.account_id), name: 'Demo Merchant', status: 'ACTIVE' },
      photosTeam: { id: String(creds.photos.team_id), name: 'Demo Builders' },
    });
    expect(body.data?.photosProjects).toHaveLength(4);
  });

  it('forwards each credential only to its own subgraph, as Authorization, and never the client Authorization', async () => {
    await query({
      ...validHeaders(),
      authorization: 'Bearer client-own-credential',
      cookie: 'session=client',
      'x-merchant-public-key': creds.bnpl.public_key,
    });
    const own: Record<Name, string> = {
      bnpl: `Bearer ${creds.bnpl.dashboard_token}`,
      crypto: `Bearer ${creds.crypto.api_key}`,
      photos: `Bearer ${creds.photos.token}`,
    };
    for (const name of ['bnpl', 'crypto', 'photos'] as const) {
      expect(seen[name].length).toBeGreaterThan(0);
      for (const headers of seen[name]) {
        expect(headers.authorization).toBe(own[name]);
        expect(headers.cookie).toBeUndefined();
        for (const clientHeader of CLIENT_ONLY_HEADERS) expect(headers[clientHeader]).toBeUndefined();
        const serialized = JSON.stringify(headers);
        for (const other of (['bnpl', 'crypto', 'photos'] as const).filter((n) => n !== name)) {
          expect(serialized).not.toContain(own[other].slice('Bearer '.length));
        }
        expect(serialized).not.toContain('client-own-credential');
        expect(headers['x-merchant-public-key']).toBe(name === 'bnpl' ? creds.bnpl.public_key : undefined);
      }
    }
  });

  it('refuses the query without credentials: every field UNAUTHENTICATED, no data', async () => {
    const { body } = await query({});
    expect(body.data).toEqual({ bnplMerchant: null, cryptoAccount: null, photosTeam: null, photosProjects: null });
    expect(body.errors?.length).toBeGreaterThanOrEqual(4);
    expect(new Set(body.errors?.map((e) => e.extensions?.code))).toEqual(new Set(['UNAUTHENTICATED']));
    for (const name of ['bnpl', 'crypto', 'photos'] as const) {
      for (const headers of seen[name]) expect(headers.authorization).toBeUndefined();
    }
  });

  it('does not forward the client Authorization header in place of a missing service header', async () => {
    const { body } = await query({ authorization: `Bearer ${creds.bnpl.dashboard_token}` }, '{ bnplMerchant { name } }');
    expect(body.data?.bnplMerchant).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(seen.bnpl.every((h) => h.authorization === undefined)).toBe(true);
  });

  it('refuses credentials sent in another service\'s header', async () => {
    const { body } = await query({
      'x-bnpl-authorization': `Bearer ${creds.photos.token}`,
      'x-crypto-authorization': `Bearer ${creds.bnpl.dashboard_token}`,
      'x-photos-authorization': `Bearer ${creds.crypto.api_key}`,
    });
    expect(body.data).toEqual({ bnplMerchant: null, cryptoAccount: null, photosTeam: null, photosProjects: null });
    expect(new Set(body.errors?.map((e) => e.extensions?.code))).toEqual(new Set(['UNAUTHENTICATED']));
  });

  it('returns the authorized subgraphs\' data when only some credentials are valid', async () => {
    const { body } = await query({ 'x-crypto-authorization': `Bearer ${creds.crypto.api_key}` });
    expect(body.data?.cryptoAccount).toMatchObject({ name: 'Demo Merchant' });
    expect(body.data?.bnplMerchant).toBeNull();
    expect(body.data?.photosTeam).toBeNull();
    expect(body.errors?.map((e) => e.path?.[0]).sort()).toEqual(['bnplMerchant', 'photosProjects', 'photosTeam']);
  });

  it('accepts the bnpl API key pair (X-Bnpl-Authorization secret key + X-Merchant-Public-Key)', async () => {
    const { body } = await query(
      { 'x-bnpl-authorization': `Bearer ${creds.bnpl.secret_key}`, 'x-merchant-public-key': creds.bnpl.public_key },
      '{ bnplMerchant { name apiKeys { publicKey } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.bnplMerchant).toEqual({ name: 'Demo Shop', apiKeys: [{ publicKey: creds.bnpl.public_key }] });
  });

  it("passes a subgraph's RATE_LIMITED through to the client and keeps the other subgraphs' data", async () => {
    // A fresh crypto key with its own 120/min budget, so the demo key used by the other tests is not spent.
    const em = orms.crypto.em.fork();
    const generated = crypto.generateApiKey();
    const account = await em.findOneOrFail(crypto.Account, { name: 'Demo Merchant' });
    em.create(crypto.ApiKey, { account, keyId: generated.keyId, secretHash: crypto.hashSecret(generated.secret), name: 'rate-limit test' });
    await em.flush();
    const headers = { ...validHeaders(), 'x-crypto-authorization': `Bearer ${generated.plaintext}` };
    for (let i = 0; i < 120; i++) {
      const { body } = await query(headers, '{ cryptoAccount { id } }');
      expect(body.errors).toBeUndefined();
    }
    const { status, body } = await query(headers);
    expect(status).toBe(200);
    expect(body.data?.cryptoAccount).toBeNull();
    expect(body.data?.bnplMerchant).toMatchObject({ name: 'Demo Shop' });
    expect(body.data?.photosTeam).not.toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ message: 'Too Many Attempts.', extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
  });

  it('refuses an over-limit query before any subgraph is called', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: photosTeam { id }`).join(' ');
    const { status, body } = await query(validHeaders(), `{ ${aliases} }`);
    expect(status).toBe(400);
    expect(body.errors?.map((e) => e.extensions?.code)).toContain('TOO_MANY_ALIASES');
    expect([...seen.bnpl, ...seen.crypto, ...seen.photos]).toEqual([]);
  });
});
