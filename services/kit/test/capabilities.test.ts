// Capability tokens in paths never reach the access log or a span whole (http/capabilities.ts): what the router matched
// at a declared route, and any text of a declared format elsewhere in the URL, keep only their prefix and first
// characters.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Express, RequestHandler } from 'express';
import request from 'supertest';
import {
  NotFoundError,
  capabilityShortForm,
  createServiceApp,
  installTracing,
  messageErrorFormat,
  routeGuard,
  tokenPattern,
  tokenSearchPattern,
  type CapabilityToken,
  type TokenFormat,
  type Tracing,
} from '../src/index.js';
import { waitFor } from '../src/testing/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

const FORMAT: TokenFormat = { prefix: 'tk_', alphabet: 'alphanumeric', length: 12 };
const TOKEN = 'tk_Abcd12345678';
const SHORT = 'tk_Abcd…';
const CAPABILITY: CapabilityToken = {
  name: 'test token',
  format: FORMAT,
  routes: [
    { path: '/things/:token', param: 'token' },
    { path: '/things/:token/cancel', param: 'token' },
    { path: '/pages/:token{/}', param: 'token' },
  ],
};

describe('token formats and the short form', () => {
  it('matches whole tokens, finds them in longer text only on their own, and keeps the prefix and four characters', () => {
    expect(tokenPattern(FORMAT).test(TOKEN)).toBe(true);
    expect(tokenPattern(FORMAT).test(`${TOKEN}x`)).toBe(false);
    expect(`/a/${TOKEN}?b=${TOKEN}&c=x${TOKEN}`.replace(tokenSearchPattern(FORMAT), '<t>')).toBe(`/a/<t>?b=<t>&c=x${TOKEN}`);
    expect(tokenPattern({ prefix: 'rps_', alphabet: 'base64url', length: 3 }).test('rps_a-_')).toBe(true);
    expect(capabilityShortForm(TOKEN, 'tk_')).toBe(SHORT);
    expect(capabilityShortForm('no-prefix-value', 'tk_')).toBe('no-p…');
    expect(capabilityShortForm('Ab3dEf6hIj9kLm2nOp5qRs8t', '')).toBe('Ab3d…');
  });
});

describe('the access log and the server spans of a service app with a capability', () => {
  const logs = capturingLogger('info');
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let app: Express;

  beforeAll(async () => {
    tracing = installTracing('kit-test', new SimpleSpanProcessor(exporter));
    const refuseAll: RequestHandler = (_req, res) => void res.status(429).json({ message: 'Too many.' });
    app = await createServiceApp({
      service: 'kit-test',
      logger: logs.logger,
      errorFormat: messageErrorFormat({ not_found: 'Not found.' }),
      readiness: [],
      capabilities: [CAPABILITY],
      configure(express) {
        // A guard that answers before the route: the capability is shortened all the same.
        express.use(routeGuard({ method: 'post', path: '/things/:token/cancel' }, refuseAll));
        express.get('/things/:token', (req, res) => {
          req.log.info('handler ran');
          res.json({ ok: true });
        });
        // A path-less page, as the services' checkout and payer pages: it matches the path itself.
        express.use((req, res, next) => (/^\/pages\/[^/]+\/?$/.test(req.path) ? res.type('text/html').send('<p>page</p>') : next()));
        express.get('/missing/:token', () => {
          throw new NotFoundError('thing');
        });
      },
    });
  });
  afterAll(async () => {
    await tracing.shutdown();
  });

  const accessUrls = () => logs.lines().filter((line) => typeof line.req === 'object').map((line) => (line.req as { url: string }).url);

  it('shortens what the router matched, and tokens of the format anywhere else, in the access log and in url.path', async () => {
    await request(app).get(`/things/${TOKEN}`).expect(200);
    await request(app).get('/things/not-shaped-like-a-token').expect(200);
    await request(app).post(`/things/${TOKEN}/cancel`).expect(429);
    await request(app).get(`/pages/${TOKEN}/`).expect(200);
    await request(app).get(`/unknown/${TOKEN}?ref=${TOKEN}&page=2`).expect(404);
    await request(app).get(`/things/${TOKEN}%FF`).expect(400);
    await request(app).get(`/missing/${TOKEN}`).expect(404);

    // Each line is written when its response has closed.
    expect(await waitFor(async () => accessUrls(), (urls) => urls.length >= 7, 5_000)).toEqual([
      `/things/${SHORT}`,
      '/things/not-…',
      `/things/${SHORT}/cancel`,
      `/pages/${SHORT}/`,
      `/unknown/${SHORT}?ref=${SHORT}&page=2`,
      `/things/${SHORT}%FF`,
      `/missing/${SHORT}`,
    ]);
    expect(logs.text()).not.toContain(TOKEN);
    expect(logs.text()).not.toContain('not-shaped-like-a-token');

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.attributes['url.path'])).toEqual([
      `/things/${SHORT}`,
      '/things/not-…',
      `/things/${SHORT}/cancel`,
      `/pages/${SHORT}/`,
      `/unknown/${SHORT}`,
      `/missing/${SHORT}`,
    ]);
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes]))).not.toContain(TOKEN);
  });

  it('leaves the route template of the route that answered: a path-less page stays unmatched', () => {
    const routes = exporter.getFinishedSpans().map((span) => span.attributes['http.route']);
    expect(routes).toEqual(['/things/:token', '/things/:token', '/things/:token/cancel', 'unmatched', 'unmatched', '/missing/:token']);
  });
});
