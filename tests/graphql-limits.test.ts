// The gateway and the three real services, all with the default GraphQL limits (the kit's graphqlLimits, the same at
// every port): the operations the gateway accepts at each limit reach the subgraphs as query-plan fetches that the
// subgraphs' own limits accept too, so an accepted operation is never refused half-way.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as bnpl from '@tributary/bnpl';
import * as crypto from '@tributary/crypto';
import { gatewayEnv, startGateway } from '@tributary/gateway';
import * as photos from '@tributary/photos';
import { createLogger, GRAPHQL_LIMIT_CODES, loadConfig, migrateUp, startHttpServer, type RunningServer } from '@tributary/kit';
import type { ServiceDefinition } from '@tributary/kit/runtime';
import { createTestDatabase, testServiceConfig } from '@tributary/kit/testing';
import { readSupergraphSdl } from '@tributary/schema';
import { Kind, parse, type ObjectTypeDefinitionNode } from 'graphql';

type Name = 'bnpl' | 'crypto' | 'photos';
const services = { bnpl, crypto, photos } as const;
const definitions: Record<Name, ServiceDefinition> = { bnpl: bnpl.bnplService, crypto: crypto.cryptoService, photos: photos.photosService } as never;
const logger = createLogger({ service: 'system-test', level: 'silent' });

const cleanup: Array<() => Promise<void>> = [];
const urls = {} as Record<Name, string>;
/** The bodies each subgraph's /graphql received: the gateway's fetches. */
const fetches: Record<Name, string[]> = { bnpl: [], crypto: [], photos: [] };
let gateway: RunningServer;
let headers: Record<string, string>;

async function startService(name: Name): Promise<unknown> {
  const svc = services[name];
  const db = await createTestDatabase(`limits_${name}`);
  cleanup.unshift(() => db.drop());
  const orm = await svc.openDatabase(db.url, logger);
  cleanup.unshift(() => orm.close());
  await migrateUp(orm);
  const credentials = await svc.seedDemoData(orm.em.fork());
  const built = await svc.buildApp({ orm, logger, config: { ...testServiceConfig(definitions[name], db.url), PORT: 0 } as never });
  const server = await startHttpServer(built.app, { port: 0, host: '127.0.0.1', logger, graceMs: 500, onClose: [built.close] });
  cleanup.unshift(() => server.close());
  urls[name] = `${server.url}/graphql`;
  return credentials;
}

beforeAll(async () => {
  const [b, c, p] = (await Promise.all([startService('bnpl'), startService('crypto'), startService('photos')])) as [
    bnpl.BnplDemoCredentials,
    crypto.CryptoDemoCredentials,
    photos.PhotosDemoCredentials,
  ];
  headers = {
    'x-bnpl-authorization': `Bearer ${b.dashboard_token}`,
    'x-crypto-authorization': `Bearer ${c.api_key}`,
    'x-photos-authorization': `Bearer ${p.token}`,
  };
  // A tap on the gateway's side: every subgraph request goes through the global fetch (the gateway's subgraphFetcher).
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = (Object.keys(urls) as Name[]).find((n) => url === urls[n]);
    if (name && typeof init?.body === 'string') fetches[name].push((JSON.parse(init.body) as { query: string }).query);
    return realFetch(input, init);
  };
  cleanup.push(async () => {
    globalThis.fetch = realFetch;
  });
  const config = loadConfig(gatewayEnv, { PORT: '1', BNPL_SUBGRAPH_URL: urls.bnpl, CRYPTO_SUBGRAPH_URL: urls.crypto, PHOTOS_SUBGRAPH_URL: urls.photos, SHUTDOWN_GRACE_MS: '500' });
  gateway = await startGateway({ ...config, PORT: 0 }, logger);
  cleanup.unshift(() => gateway.close());
}, 120_000);

afterAll(async () => {
  for (const step of cleanup) await step();
});

type GqlBody = { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };

async function viaGateway(query: string, variables?: object): Promise<{ status: number; body: GqlBody }> {
  for (const list of Object.values(fetches)) list.length = 0;
  const res = await fetch(`${gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as GqlBody };
}

/** Accepted by the gateway, fetched from `subgraph` (the fetch is what the subgraph's limits measured) without any error. */
async function expectAnswered(subgraph: Name, query: string, variables?: object): Promise<GqlBody> {
  const { status, body } = await viaGateway(query, variables);
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  expect(fetches[subgraph]).toHaveLength(1);
  return body;
}

async function expectRefusedByGateway(code: string, query: string, variables?: object): Promise<void> {
  const { status, body } = await viaGateway(query, variables);
  expect(status).toBe(400);
  expect(body.errors?.map((e) => e.extensions?.code)).toEqual([code]);
  expect([...fetches.bnpl, ...fetches.crypto, ...fetches.photos]).toEqual([]);
}

/** `levels` fields down photos' project ↔ photos cycle below photosProjects, ending in id: depth levels + 2. */
const photosCycle = (levels: number): string => {
  const steps = ['photos', 'items', 'project'];
  const open = Array.from({ length: levels }, (_, i) => `${steps[i % 3]} {`).join(' ');
  return `{ photosProjects { ${open} id ${'} '.repeat(levels)}} }`;
};

describe('the gateway over subgraphs with the same limits', () => {
  it('has no type shared by two subgraphs, so every fetch is a selection of the client operation (no _entities fetch)', () => {
    const supergraph = parse(readSupergraphSdl());
    const shared = supergraph.definitions
      .filter((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && !['Query', 'Mutation'].includes(d.name.value))
      .filter((d) => (d.directives ?? []).filter((directive) => directive.name.value === 'join__type').length !== 1)
      .map((d) => d.name.value);
    expect(shared).toEqual([]);
  });

  it('depth: the deepest photos operation (10, through project ↔ photos) is answered; 11 is refused by the gateway', async () => {
    const body = await expectAnswered('photos', photosCycle(8));
    expect(body.data?.photosProjects).toHaveLength(4);
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.depth, photosCycle(9));
  });

  it('depth: the deepest crypto operation (10, through payment request ↔ webhook deliveries) is answered', async () => {
    const cycle = (levels: number) => {
      const open = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? 'webhookDeliveries {' : 'paymentRequest {')).join(' ');
      return `{ paymentRequests { data { ${open} id ${'} '.repeat(levels)}} } }`;
    };
    await expectAnswered('crypto', cycle(7));
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.depth, cycle(8));
  });

  it('cost: the costliest photos operation (named fragments kept in the fetch, an inline fragment) is answered', async () => {
    // 807.6 for the fragments' part, 1.5 per `id` under photosTeam: 128 of them make 999.6, 129 make 1001.1.
    const costliest = (ids: number) => `query Costliest {
      photosProjects { ...Project photos { total items { ...Photo project { ...Project photos { total items { ...Photo project { ...Project } } } } } } }
      photosTeam { ... on PhotosTeam { id name createdAt } devices { id name } ${'id '.repeat(ids)} }
    }
    fragment Project on PhotosProject { id name status address createdAt lastActivityAt coordinates { lat lng radiusM } }
    fragment Photo on PhotosPhoto { id description tags capturedAt urls { thumb full } }`;
    await expectAnswered('photos', costliest(128));
    expect(fetches.photos[0]).toContain('fragment Project on PhotosProject');
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.cost, costliest(129));
  });

  it('aliases and directives: 15 aliases and 50 directives (variables kept in the fetch) are answered', async () => {
    /** `aliases` aliased photosTeam and one photosProjects; `directives` of their fields carry @include(if: $yes). */
    const wide = (aliases: number, directives: number) => {
      let left = directives;
      const field = (name: string) => (left-- > 0 ? `${name} @include(if: $yes)` : name);
      const teams = Array.from({ length: aliases }, (_, i) => `t${i}: photosTeam { ${['id', 'name', 'createdAt'].map(field).join(' ')} }`);
      const projects = `photosProjects { ${['id', 'name', 'status', 'address', 'createdAt', 'lastActivityAt'].map(field).join(' ')} }`;
      return `query Wide($yes: Boolean!) { ${teams.join(' ')} ${projects} }`;
    };
    const body = await expectAnswered('photos', wide(15, 50), { yes: true });
    expect(Object.keys(body.data ?? {})).toHaveLength(16);
    expect(fetches.photos[0]?.match(/@include/g)).toHaveLength(50);
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.aliases, wide(16, 50), { yes: true });
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.directives, wide(15, 51), { yes: true });
  });

  it('tokens: a 2000-token operation is answered; 2001 is refused by the gateway', async () => {
    // `query Tokens { photosTeam {` … `} }` 7 tokens, 15 per photos(…) { total }, 1 per id: 7 + 15 × 132 + 13 = 2000.
    const tokens = (ids: number) => `query Tokens { photosTeam {
      ${'photos(tag: "none", capturedFrom: "2020-01-01", page: 1) { total } '.repeat(132)} ${'id '.repeat(ids)} } }`;
    await expectAnswered('photos', tokens(13));
    await expectRefusedByGateway(GRAPHQL_LIMIT_CODES.tokens, tokens(14));
  });
});
