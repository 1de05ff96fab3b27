// The contract-fuzz suite's runner (testing/schemathesis.ts) against a tiny real HTTP server and its document: it
// fails on an answer the document does not describe (a wrong body, an undocumented status, a 5xx) and on a revoked
// credential (missing_auth), and passes once the server keeps its document. Needs SCHEMATHESIS_PATH (npm test sets it).
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contractFuzzConfig, contractFuzzReport, runSchemathesis, SCHEMATHESIS_PATH_ENV } from '../src/testing/schemathesis.js';

const TOKEN = 'test-token';

/** One operation: GET /things/{id}, id an integer 1..100, answers 200 {id, name} or 404; bearer auth. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'things', version: '1' },
  components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
  security: [{ token: [] }],
  paths: {
    '/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: {
          '200': {
            description: 'the thing',
            content: { 'application/json': { schema: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
          },
          '401': { description: 'no token', content: { 'application/json': { schema: { type: 'object' } } } },
          '404': { description: 'no such thing', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};

type Behaviour = 'conforming' | 'wrong-body' | 'server-error' | 'revoked-token';

let behaviour: Behaviour = 'conforming';
let server: Server;
let url: string;
let dir: string;
let documentPath: string;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'schemathesis-test-'));
  documentPath = path.join(dir, 'openapi.json');
  await writeFile(documentPath, JSON.stringify(DOCUMENT));
  server = createServer((req, res) => {
    const match = /^\/things\/([^/?]+)$/.exec(req.url ?? '');
    if (!match) return json(res, 404, { error: 'not found' });
    if (behaviour === 'revoked-token' || req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { error: 'unauthenticated' });
    const id = Number(match[1]);
    if (!Number.isInteger(id) || id < 1 || id > 100) {
      // A server that trusts its input: anything but a small integer breaks it.
      if (behaviour === 'server-error') return json(res, 500, { error: 'boom' });
      return json(res, 404, { error: 'no such thing' });
    }
    if (behaviour === 'wrong-body') return json(res, 200, { id: String(id), name: 'thing' });
    return json(res, 200, { id, name: 'thing' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function run(b: Behaviour) {
  behaviour = b;
  const executable = process.env[SCHEMATHESIS_PATH_ENV];
  if (!executable) throw new Error(`${SCHEMATHESIS_PATH_ENV} is not set: run through npm test`);
  return runSchemathesis({ executable, documentPath, url, credentials: { token: { bearer: TOKEN } }, deep: false, maxExamples: 5, timeoutMs: 90_000, seed: '1' });
}

describe('runSchemathesis', () => {
  it('passes a server that keeps its document', async () => {
    const result = await run('conforming');
    expect(result.output).toContain('passed');
    expect(result.ok).toBe(true);
  }, 120_000);

  it('fails on a 200 body that breaks the documented schema, naming it', async () => {
    const result = await run('wrong-body');
    expect(result.ok).toBe(false);
    expect(contractFuzzReport(result.output)).toMatch(/Response violates schema/);
  }, 120_000);

  it('fails on a 5xx (which is also a status the operation does not document)', async () => {
    const result = await run('server-error');
    expect(result.ok).toBe(false);
    expect(contractFuzzReport(result.output)).toMatch(/Server error/);
  }, 120_000);

  it('fails when every answer is 401: a revoked credential must not pass as a clean run', async () => {
    const result = await run('revoked-token');
    expect(result.ok).toBe(false);
    expect(contractFuzzReport(result.output)).toMatch(/Authentication failed/);
  }, 120_000);
});

describe('contractFuzzConfig', () => {
  it('writes one auth section per scheme, by kind', () => {
    const toml = contractFuzzConfig({ a: { bearer: 'x"y' }, b: { apiKey: 'k' } });
    expect(toml).toContain('[auth.openapi.a]\nbearer = "x\\"y"');
    expect(toml).toContain('[auth.openapi.b]\napi_key = "k"');
  });

  it('names an existing resource for one operation: its path, method and parameter values', () => {
    const toml = contractFuzzConfig({ a: { bearer: 't' } }, { existingResources: [{ method: 'delete', path: '/tokens/{token}', parameters: { token: '7' } }] });
    expect(toml).toContain('[[operations]]\ninclude-path = "/tokens/{token}"\ninclude-method = "DELETE"\nparameters = { "token" = "7" }');
  });
});
