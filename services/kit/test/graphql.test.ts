import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLError } from 'graphql';
import {
  AuthenticationError,
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
  createServiceApp,
  graphqlLimitsEnv,
  loadConfig,
  loadTypeDefs,
  messageErrorFormat,
  mountSubgraph,
  startHttpServer,
  type RunningServer,
} from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const sdl = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])

type Merchant @key(fields: "id") {
  id: ID!
  name: String!
}

type Query {
  merchant(id: ID!): Merchant
  failure(kind: String!): Boolean
  whoami: String!
}
`;

const merchants = new Map([['m1', { id: 'm1', name: 'Acme Tools' }]]);

interface Context {
  caller: string | undefined;
}

const failures: Record<string, () => Error> = {
  auth: () => new AuthenticationError('revoked key'),
  forbidden: () => new ForbiddenError('Missing scope photos:read.', { missing_scope: 'photos:read' }),
  not_found: () => new NotFoundError('merchant of another account'),
  validation: () => new ValidationError({ amount: ['Must be a decimal string.'] }),
  rule: () => new BusinessRuleError('A settled request cannot be cancelled.', undefined, { code: 'settled' }),
  conflict: () => new ConflictError('Duplicate reference.'),
  rate: () => new RateLimitedError(12),
  crash: () => new Error('password authentication failed for user "bnpl" at 10.1.2.3'),
  deliberate: () => new GraphQLError('Custom message', { extensions: { code: 'SOMETHING_SPECIFIC' } }),
};

let server: RunningServer;
let stopSubgraph: () => Promise<void>;
const logs = capturingLogger('info');

async function graphql(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; errors?: Array<Record<string, unknown>> } };
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-sdl-'));
  writeFileSync(join(dir, 'merchant.graphql'), sdl);
  const app = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat: messageErrorFormat(),
    readiness: [],
    async configure(app) {
      stopSubgraph = await mountSubgraph<Context>(app, {
        typeDefs: loadTypeDefs(join(dir, 'merchant.graphql')),
        limits: loadConfig(graphqlLimitsEnv, {}),
        logger: logs.logger,
        context: async (req) => {
          if (req.headers.authorization === 'Bearer revoked') throw new AuthenticationError('revoked');
          return { caller: req.headers.authorization };
        },
        resolvers: {
          Query: {
            merchant: (_: unknown, { id }: { id: string }) => merchants.get(id) ?? null,
            failure: (_: unknown, { kind }: { kind: string }) => {
              throw failures[kind]!();
            },
            whoami: (_: unknown, __: unknown, context: Context) => context.caller ?? 'anonymous',
          },
          Merchant: {
            __resolveReference: (reference: { id: string }) => merchants.get(reference.id) ?? null,
          },
        },
      });
    },
  });
  server = await startHttpServer(app, { port: 0, host: '127.0.0.1', logger: logs.logger, onClose: [() => stopSubgraph()] });
});

afterAll(async () => {
  await server?.close();
});

describe('mountSubgraph', () => {
  it('answers queries with the per-request context', async () => {
    const result = await graphql({ query: '{ merchant(id: "m1") { id name } whoami }' }, { authorization: 'Bearer k' });
    expect(result).toEqual({ status: 200, body: { data: { merchant: { id: 'm1', name: 'Acme Tools' }, whoami: 'Bearer k' } } });
  });

  it('serves the federation SDL through _service', async () => {
    const result = await graphql({ query: '{ _service { sdl } }' });
    const returned = (result.body.data?._service as { sdl: string }).sdl;
    expect(returned).toMatch(/type Merchant\s+@key\(fields: "id"\)/);
    expect(returned).toContain('merchant(id: ID!): Merchant');
  });

  it('resolves entities through _entities', async () => {
    const result = await graphql({
      query: 'query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Merchant { id name } } }',
      variables: { representations: [{ __typename: 'Merchant', id: 'm1' }, { __typename: 'Merchant', id: 'missing' }] },
    });
    expect(result.body.data).toEqual({ _entities: [{ id: 'm1', name: 'Acme Tools' }, null] });
  });

  it('maps domain errors to extensions.code', async () => {
    const codeOf = async (kind: string) => (await graphql({ query: `{ failure(kind: "${kind}") }` })).body.errors![0]!;
    expect(await codeOf('auth')).toMatchObject({ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' }, path: ['failure'] });
    expect(await codeOf('forbidden')).toMatchObject({
      message: 'Missing scope photos:read.',
      extensions: { code: 'FORBIDDEN', missing_scope: 'photos:read' },
    });
    expect(await codeOf('not_found')).toMatchObject({ message: 'Not found.', extensions: { code: 'NOT_FOUND' } });
    expect(await codeOf('validation')).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { amount: ['Must be a decimal string.'] } },
    });
    expect(await codeOf('rule')).toMatchObject({
      message: 'A settled request cannot be cancelled.',
      extensions: { code: 'BAD_USER_INPUT', reason: 'settled' },
    });
    expect(await codeOf('conflict')).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(await codeOf('rate')).toMatchObject({ extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 12 } });
    expect(await codeOf('deliberate')).toMatchObject({ message: 'Custom message', extensions: { code: 'SOMETHING_SPECIFIC' } });
  });

  it('hides unexpected errors and logs them', async () => {
    const result = await graphql({ query: '{ failure(kind: "crash") }' });
    expect(result.body.errors).toEqual([
      { message: 'Internal server error.', locations: [{ line: 1, column: 3 }], path: ['failure'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    expect(JSON.stringify(result.body)).not.toContain('10.1.2.3');
    const logged = logs.lines().find((line) => line.msg === 'unexpected error in GraphQL resolver');
    expect(logged).toMatchObject({ level: 50, requestId: expect.any(String), err: { message: expect.stringContaining('password authentication failed') } });
  });

  it('refuses the whole operation when the context throws a domain error', async () => {
    const result = await graphql({ query: '{ whoami }' }, { authorization: 'Bearer revoked' });
    expect(result.status).toBe(200);
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors).toEqual([{ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  it('keeps client-facing parse and validation errors', async () => {
    const result = await graphql({ query: '{ nope }' });
    expect(result.status).toBe(400);
    expect(result.body.errors![0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  it('keeps Apollo CSRF prevention on for simple GET requests', async () => {
    const blocked = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ whoami }')}`);
    expect(blocked.status).toBe(400);
    const allowed = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ whoami }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(allowed.status).toBe(200);
  });

  it('refuses non-JSON POST bodies before Apollo sees them', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{ whoami }' });
    expect(response.status).toBe(415);
  });
});

describe('loadTypeDefs', () => {
  it('names the file in parse errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-sdl-'));
    const file = join(dir, 'broken.graphql');
    writeFileSync(file, 'type Query {');
    expect(() => loadTypeDefs(file)).toThrow(/broken\.graphql/);
  });
});
