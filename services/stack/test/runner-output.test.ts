import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { graphiqlDemoAuthorizationEnv } from '@tributary/kit';
import { loadStackEnv } from '../src/config.js';
import { demoAuthorization, serviceSpecs, type ServiceName } from '../src/services.js';
import { stackPaths } from '../src/paths.js';
import { urlTable } from '../src/start.js';
import { summaryLine, tallyJest } from '../src/test-runner.js';
import { credentialLines, parseSeedCredentials, renderTable } from '../src/url-table.js';

describe('seed credentials and the URL table', () => {
  it('finds the JSON credentials line among log lines', () => {
    const stdout = '{"level":30,"msg":"seeding"}\n{"credentials":{"email":"demo@example.com","password":"pw","keys":{"public":"pk_1"}}}\n';
    const credentials = parseSeedCredentials(stdout);
    expect(credentials).toEqual({ email: 'demo@example.com', password: 'pw', keys: { public: 'pk_1' } });
    expect(credentialLines(credentials)).toEqual(['email: demo@example.com', 'password: pw', 'keys.public: pk_1']);
    expect(parseSeedCredentials('no json here')).toBeUndefined();
  });

  it("lists the Prometheus /metrics of the gateway and of each service's serve and worker", () => {
    const env = loadStackEnv({ CRYPTO_WORKER_METRICS_PORT: '4112' });
    const infra = { databaseUrls: { bnpl: '', crypto: '', photos: '' }, postgresLabel: 'pg', temporalAddress: '127.0.0.1:7233', temporalLabel: '127.0.0.1:7233' };
    const table = urlTable(env, serviceSpecs('/repo', env), true, infra, new Map(), stackPaths('/repo'));
    expect(table).toContain('http://localhost:4000/metrics');
    expect(table).toContain('http://localhost:4001/metrics, http://localhost:4011/metrics');
    expect(table).toContain('http://localhost:4002/metrics, http://localhost:4112/metrics');
    expect(table).toContain('http://localhost:4003/metrics, http://localhost:4013/metrics');
  });

  it('aligns columns', () => {
    const table = renderTable(['Service', 'URL'], [['bnpl', 'http://localhost:4001/api/v1'], ['gateway', 'http://localhost:4000/graphql']]);
    const lines = table.split('\n');
    expect(lines[2]!.indexOf('http')).toBe(lines[3]!.indexOf('http'));
  });
});

describe('GRAPHIQL_DEMO_AUTHORIZATION for the GraphiQL pages', () => {
  const specs = serviceSpecs('/repo', loadStackEnv({}));
  // What each seed prints (services/*/src/seed.ts), reduced to the fields that matter here.
  const credentials = new Map<ServiceName, Record<string, unknown> | undefined>([
    ['bnpl', { merchant_id: 'm1', dashboard_token: 'dt_demo', public_key: 'pk_test_demo', secret_key: 'sk_test_demo' }],
    ['crypto', { api_key: 'ck_demo.secret', signing_secret: 'whsec_demo', account_id: 1 }],
    ['photos', { team_id: 1, email: 'demo@photos.test', token: 'ph_demo' }],
  ]);

  it("turns each seed's bearer credential into an Authorization value the services and the gateway accept", () => {
    const all = demoAuthorization(specs, credentials);
    expect(JSON.parse(all)).toEqual({ bnpl: 'Bearer dt_demo', crypto: 'Bearer ck_demo.secret', photos: 'Bearer ph_demo' });
    expect(graphiqlDemoAuthorizationEnv.parse(all)).toEqual(JSON.parse(all));
    // A service gets only its own.
    expect(JSON.parse(demoAuthorization(specs.filter((s) => s.name === 'crypto'), credentials))).toEqual({ crypto: 'Bearer ck_demo.secret' });
  });

  it('leaves out a service whose seed printed no such credential', () => {
    const partial = new Map(credentials);
    partial.set('photos', undefined);
    partial.set('bnpl', { merchant_id: 'm1' });
    expect(JSON.parse(demoAuthorization(specs, partial))).toEqual({ crypto: 'Bearer ck_demo.secret' });
  });
});

describe('test summary', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-tally-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has the exact form "N passed, N failed[, N skipped]"', () => {
    expect(summaryLine({ passed: 12, failed: 0, skipped: 0 })).toBe('12 passed, 0 failed');
    expect(summaryLine({ passed: 3, failed: 1, skipped: 2 })).toBe('3 passed, 1 failed, 2 skipped');
  });

  it('counts suites that failed to run, and a failing Jest without failed tests, as failures', async () => {
    const file = path.join(dir, 'jest.json');
    await writeFile(file, JSON.stringify({ numPassedTests: 5, numFailedTests: 1, numPendingTests: 0, numTodoTests: 0, numRuntimeErrorTestSuites: 2 }));
    expect(tallyJest(file, 1)).toEqual({ passed: 5, failed: 3, skipped: 0 });
    await writeFile(file, JSON.stringify({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numRuntimeErrorTestSuites: 0 }));
    expect(tallyJest(file, 1)).toEqual({ passed: 0, failed: 1, skipped: 0 });
    expect(tallyJest(path.join(dir, 'missing.json'), 1)).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });
});
