// The limits mountSubgraph applies (graphqlLimits, the gateway's own) over real HTTP, on a schema with a cycle: a
// refused operation runs no resolver, one at a limit runs, and the gateway's fetch shapes (`_entities` with an inline
// fragment, `_service`) are measured like the client selection they come from.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'graphql';
import { GRAPHQL_LIMIT_CODES, createServiceApp, graphqlLimitsEnv, loadConfig, messageErrorFormat, mountSubgraph, startHttpServer, type RunningServer } from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type Node @key(fields: "id") {
    id: ID!
    name: String!
    next: Node
    children(first: Int): [Node!]!
  }
  type Query { node: Node }
`);

const limits = loadConfig(graphqlLimitsEnv, {
  GRAPHQL_MAX_DEPTH: '4',
  GRAPHQL_MAX_COST: '100',
  GRAPHQL_MAX_ALIASES: '2',
  GRAPHQL_MAX_DIRECTIVES: '2',
  GRAPHQL_MAX_TOKENS: '60',
});

let resolverCalls = 0;
const node = (id: string) => {
  resolverCalls++;
  return { id, name: `node ${id}` };
};

let server: RunningServer;
beforeAll(async () => {
  const logs = capturingLogger('silent');
  let stop: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat: messageErrorFormat(),
    readiness: [],
    async configure(express) {
      stop = await mountSubgraph(express, {
        typeDefs,
        limits,
        logger: logs.logger,
        context: async () => ({}),
        resolvers: {
          Query: { node: () => node('1') },
          Node: {
            __resolveReference: (reference: { id: string }) => node(reference.id),
            next: (parent: { id: string }) => node(`${parent.id}.n`),
            children: (parent: { id: string }, { first }: { first?: number }) => Array.from({ length: first ?? 1 }, (_, i) => node(`${parent.id}.${i}`)),
          },
        },
      });
    },
  });
  server = await startHttpServer(app, { port: 0, host: '127.0.0.1', logger: logs.logger, onClose: [() => stop()] });
});

afterAll(async () => {
  await server?.close();
});

async function post(query: string, variables?: object) {
  resolverCalls = 0;
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

/** `depth` levels down the Node.next cycle, ending in `id`. */
const chain = (depth: number): string => (depth <= 1 ? 'id' : `next { ${chain(depth - 1)} }`);

describe('mountSubgraph limits', () => {
  it('refuses a selection deeper than GRAPHQL_MAX_DEPTH with QUERY_TOO_DEEP before any resolver runs', async () => {
    const refused = await post(`{ node { ${chain(4)} } }`);
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Query depth limit of 4 exceeded, found 5.', extensions: { code: GRAPHQL_LIMIT_CODES.depth } }] } });
    expect(resolverCalls).toBe(0);
    const atLimit = await post(`{ node { ${chain(3)} } }`);
    expect(atLimit).toEqual({ status: 200, body: { data: { node: { next: { next: { id: '1.n.n' } } } } } });
  });

  it('counts no level for a fragment, so a fragment cannot hide depth either', async () => {
    expect((await post(`{ node { ...Deep } } fragment Deep on Node { ${chain(3)} }`)).status).toBe(200);
    expect((await post(`{ node { ... on Node { ${chain(3)} } } }`)).status).toBe(200);
    const refused = await post(`{ node { ...Deep } } fragment Deep on Node { ${chain(4)} }`);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe(GRAPHQL_LIMIT_CODES.depth);
  });

  it('measures an _entities fetch (inline fragment) like the client selection under the entity: depth 4 passes', async () => {
    // The gateway's fetch for `{ x { node { next { next { id } } } } }` (depth 4) when `next` lives in this subgraph.
    const representations = [{ __typename: 'Node', id: '7' }];
    const fetch = await post(`query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Node { ${chain(3)} } } }`, { representations });
    expect(fetch).toEqual({ status: 200, body: { data: { _entities: [{ next: { next: { id: '7.n.n' } } }] } } });
  });

  it('answers the federation _service query', async () => {
    const result = await post('{ _service { sdl } }');
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ _service: { sdl: expect.stringContaining('type Node') } });
  });

  it('refuses a costlier selection (a literal `first` multiplies its list) with QUERY_TOO_COSTLY', async () => {
    // node: 2 + 1.5 × children; children: (2 + 1.5 × id) × first.
    const refused = await post('{ node { children(first: 20) { id } } }');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ message: 'Query Cost limit of 100 exceeded, found 107.', extensions: { code: GRAPHQL_LIMIT_CODES.cost } }]);
    expect(resolverCalls).toBe(0);
    expect((await post('{ node { children(first: 10) { id } } }')).status).toBe(200);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES with TOO_MANY_ALIASES', async () => {
    const refused = await post('{ a: node { id } b: node { id } c: node { id } }');
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Aliases limit of 2 exceeded, found 3.', extensions: { code: GRAPHQL_LIMIT_CODES.aliases } }] } });
    expect(resolverCalls).toBe(0);
    expect(await post('{ a: node { id } b: node { id } }')).toEqual({ status: 200, body: { data: { a: { id: '1' }, b: { id: '1' } } } });
  });

  it('refuses more directives than GRAPHQL_MAX_DIRECTIVES with TOO_MANY_DIRECTIVES', async () => {
    const refused = await post('{ node { id @include(if: true) name @include(if: true) next @include(if: true) { id } } }');
    expect(refused.body.errors).toEqual([{ message: 'Directives limit of 2 exceeded, found 3.', extensions: { code: GRAPHQL_LIMIT_CODES.directives } }]);
    expect(resolverCalls).toBe(0);
    expect((await post('{ node { id @include(if: true) name @include(if: true) } }')).status).toBe(200);
  });

  it('refuses more tokens than GRAPHQL_MAX_TOKENS with TOO_MANY_TOKENS', async () => {
    const names = (n: number) => `{ node { ${Array.from({ length: n }, () => 'id').join(' ')} } }`;
    // `{ node {` and `} }` are 5 tokens.
    const refused = await post(names(56));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ message: 'Token limit of 60 exceeded.', locations: expect.any(Array), extensions: { code: GRAPHQL_LIMIT_CODES.tokens } }]);
    expect(resolverCalls).toBe(0);
    expect((await post(names(55))).status).toBe(200);
  });

  it('masks field suggestions', async () => {
    const result = await post('{ node { nam } }');
    expect(result.body.errors?.[0]?.message).toBe('Cannot query field "nam" on type "Node". [Suggestion hidden]?');
  });
});
