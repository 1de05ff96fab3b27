import { describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import {
  MALFORMED_URL_MESSAGE,
  NotFoundError,
  RateLimitedError,
  createServiceApp,
  envelopeErrorFormat,
  messageErrorFormat,
  parseInput,
  type ErrorFormat,
  type ReadinessCheck,
} from '../src/index.js';
import { z } from 'zod';
import { capturingLogger } from './fixtures/capture-logs.js';

const cryptoFormat = messageErrorFormat({ authentication: 'Invalid API credentials.', not_found: 'Not found.' });

async function buildApp(options: { errorFormat?: ErrorFormat; readiness?: ReadinessCheck[]; readinessTimeoutMs?: number } = {}) {
  const logs = capturingLogger('info');
  const app: Express = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat: options.errorFormat ?? cryptoFormat,
    bodyLimit: '1kb',
    readiness: options.readiness ?? [],
    ...(options.readinessTimeoutMs ? { readinessTimeoutMs: options.readinessTimeoutMs } : {}),
    otherBodyRoutes: [{ path: '/uploads', mediaTypes: ['multipart/form-data'] }],
    configure(app) {
      app.post('/echo', (req, res) => {
        res.status(201).json({ received: req.body as unknown });
      });
      app.get('/noted', (req, res) => {
        req.log.info({ step: 'looked up' }, 'handler note');
        res.json({ ok: true });
      });
      app.get('/slow', (_req, res) => {
        // Answers after the client has given up: the line says the request was aborted.
        setTimeout(() => res.json({ late: true }), 300);
      });
      app.post('/cancel', (req, res) => {
        res.json({ cancelled: true, body: req.body ?? null });
      });
      app.post('/validate', (req, res) => {
        res.json(parseInput(z.object({ amount: z.string() }), req.body));
      });
      app.get('/records/:id', () => {
        throw new NotFoundError('record of another merchant');
      });
      app.get('/limited', async () => {
        throw new RateLimitedError(30);
      });
      app.get('/boom', () => {
        throw new Error('relation "merchants" does not exist at 10.0.0.5');
      });
      app.get('/async-boom', async () => {
        await Promise.resolve();
        throw new TypeError('cannot read properties of undefined');
      });
      app.get('/files/this-test', (_req, res, next) => {
        res.sendFile(fileURLToPath(import.meta.url), (error) => {
          if (error) next(error);
        });
      });
      app.get('/param-error', () => {
        // What the router raises for a route parameter that does not percent-decode.
        throw Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
      });
      app.get('/upstream-404', () => {
        // An error that merely carries a status (an upstream API's answer) is not the client's fault.
        throw Object.assign(new Error('upstream answered 404'), { status: 404 });
      });
      const nested = Router();
      nested.get('/items/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      nested.delete('/items/:id', (_req, res) => {
        res.status(204).end();
      });
      app.use('/nested', nested);
      app.post('/uploads', async (req, res) => {
        let bytes = 0;
        for await (const chunk of req) bytes += (chunk as Buffer).length;
        res.json({ bytes });
      });
    },
  });
  return { app, logs };
}

describe('createServiceApp: request ids and access logs', () => {
  it('generates an X-Request-Id and logs the request under it without credentials', async () => {
    const { app, logs } = await buildApp();
    const response = await request(app).post('/echo').set('Authorization', 'Bearer sk_live_abc').send({ a: 1 });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const access = logs.lines().find((line) => line.msg === 'request completed');
    expect(access).toMatchObject({ requestId: id, req: { method: 'POST', url: '/echo' }, res: { statusCode: 201 } });
    expect(logs.text()).not.toContain('sk_live_abc');
  });

  it("gives handlers a logger carrying the request id, logs 4xx at warn, and keeps probes quiet", async () => {
    const { app, logs } = await buildApp();
    const noted = await request(app).get('/noted').expect(200);
    const id = noted.headers['x-request-id'];
    expect(logs.lines()).toContainEqual(expect.objectContaining({ requestId: id, msg: 'handler note', step: 'looked up' }));
    const missing = await request(app).get('/records/7').expect(404);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'request completed', requestId: missing.headers['x-request-id'], res: { statusCode: 404 } }),
    );
    const probe = await request(app).get('/healthz').expect(200);
    expect(logs.lines().filter((line) => line.requestId === probe.headers['x-request-id'])).toEqual([]);
    const access = logs.lines().find((line) => line.requestId === id && line.msg === 'request completed');
    expect(access).toMatchObject({ req: { method: 'GET', url: '/noted' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
    expect(access).not.toHaveProperty('req.headers');
  });

  it('logs a request the client gave up on as aborted', async () => {
    const { app, logs } = await buildApp();
    await expect(request(app).get('/slow').timeout(50)).rejects.toThrow(/Timeout/);
    const aborted = () => logs.lines().some((line) => line.msg === 'request aborted');
    for (let waited = 0; !aborted() && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs.lines()).toContainEqual(expect.objectContaining({ level: 40, msg: 'request aborted', req: expect.objectContaining({ url: '/slow' }) }));
  });

  it('keeps a sane incoming request id and replaces an unsafe one', async () => {
    const { app } = await buildApp();
    const kept = await request(app).get('/healthz').set('X-Request-Id', 'gw-4f2a.77:1');
    expect(kept.headers['x-request-id']).toBe('gw-4f2a.77:1');
    const replaced = await request(app).get('/healthz').set('X-Request-Id', 'evil\tline "break"');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('createServiceApp: JSON bodies only', () => {
  it('parses application/json and +json bodies', async () => {
    const { app } = await buildApp();
    await request(app).post('/echo').send({ title: 'Order' }).expect(201, { received: { title: 'Order' } });
    await request(app)
      .post('/echo')
      .set('Content-Type', 'application/merge-patch+json; charset=utf-8')
      .send('{"title":"Patched"}')
      .expect(201, { received: { title: 'Patched' } });
  });

  it('refuses other content types with 415 in the service format', async () => {
    const { app } = await buildApp();
    const plain = await request(app).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expect(plain.status).toBe(415);
    expect(plain.body).toEqual({ message: 'The request body must be JSON (Content-Type: application/json).' });
    await request(app).post('/echo').type('form').send('a=1').expect(415);
    const untyped = await request(app).post('/echo').set('Content-Length', '2').set('Content-Type', '').send('{}');
    expect(untyped.status).toBe(415);
  });

  it('accepts bodiless POSTs without a content type', async () => {
    const { app } = await buildApp();
    await request(app).post('/cancel').set('Content-Length', '0').expect(200, { cancelled: true, body: null });
    await request(app).post('/cancel').expect(200);
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const { app } = await buildApp();
    const response = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"title": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers valid JSON that is not an object (null, a string, a number, a boolean) as a validation error on body', async () => {
    const { app } = await buildApp();
    for (const scalar of ['null', '"invoice"', '42', 'true']) {
      const response = await request(app).post('/echo').set('Content-Type', 'application/json').send(scalar);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { body: ['The request body must be a JSON object.'] } });
    }
    const { app: enveloped } = await buildApp({ errorFormat: envelopeErrorFormat });
    const response = await request(enveloped).post('/echo').set('Content-Type', 'application/json').send('null');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'validation_failed', message: 'The request is invalid.', fields: { body: ['The request body must be a JSON object.'] } } });
  });

  it('answers oversized bodies with 413', async () => {
    const { app } = await buildApp();
    const response = await request(app).post('/echo').send({ title: 'x'.repeat(2_000) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'The request body is too large.' });
  });

  it('renders the same failures in the envelope format for bnpl and photos', async () => {
    const { app } = await buildApp({ errorFormat: envelopeErrorFormat });
    const response = await request(app).post('/echo').set('Content-Type', 'text/csv').send('a,b');
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      error: { code: 'unsupported_media_type', message: 'The request body must be JSON (Content-Type: application/json).' },
    });
    const malformed = await request(app).post('/echo').set('Content-Type', 'application/json').send('nope');
    expect(malformed.body.error.code).toBe('malformed_json');
  });

  it('lets a declared route read a non-JSON body itself', async () => {
    const { app } = await buildApp();
    const response = await request(app).post('/uploads').attach('photo', Buffer.from('jpegbytes'), 'p.jpg');
    expect(response.status).toBe(200);
    expect(response.body.bytes).toBeGreaterThan(9);
    await request(app).post('/uploads').set('Content-Type', 'text/plain').send('x').expect(415);
  });
});

describe('createServiceApp: errors', () => {
  it('renders validation errors as 422 with fields', async () => {
    const { app } = await buildApp();
    await request(app)
      .post('/validate')
      .send({ amount: 5 })
      .expect(422, { message: 'The given data was invalid.', errors: { amount: ['Invalid input: expected string, received number'] } });
  });

  it('renders domain errors through the format', async () => {
    const { app } = await buildApp();
    await request(app).get('/records/9').expect(404, { message: 'Not found.' });
    const limited = await request(app).get('/limited');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
  });

  it('answers unknown routes with 404 in the format, never a redirect', async () => {
    const { app } = await buildApp();
    await request(app).get('/nowhere').expect(404, { message: 'Not found.' });
    await request(app).delete('/nowhere/echo').expect(404, { message: 'Not found.' });
  });

  it('hides unexpected errors behind a generic 500 and logs them with the request id', async () => {
    const { app, logs } = await buildApp();
    for (const path of ['/boom', '/async-boom']) {
      const response = await request(app).get(path);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ message: 'Server Error.' });
      expect(response.text).not.toMatch(/merchants|undefined|at /);
      const logged = logs.lines().find((line) => line.requestId === response.headers['x-request-id']);
      expect(logged).toMatchObject({ level: 50, err: { message: expect.stringMatching(/merchants|undefined/), stack: expect.any(String) } });
    }
  });
});

describe('createServiceApp: malformed URLs', () => {
  it.each([
    ['an invalid UTF-8 sequence in a path parameter', '/records/%F4%82'],
    ['a NUL in the query', '/records/1?reference=%00abc'],
    ['an invalid UTF-8 sequence in the query', '/records/1?q=%FF'],
    ['an overlong encoding', '/records/%C0%AF'],
    ['an encoded UTF-16 surrogate', '/records/1?q=%ED%A0%80'],
    ['a stray percent sign', '/records/100%'],
    ['an unknown route', '/nowhere/%F4%82'],
    ['a probe', '/healthz?x=%00'],
  ])('answers %s with 400 in the service format', async (_case, url) => {
    const { app } = await buildApp();
    await request(app).get(url).expect(400, { message: MALFORMED_URL_MESSAGE });
  });

  it('refuses before the body is read, and renders the envelope code malformed_request for bnpl and photos', async () => {
    const { app } = await buildApp({ errorFormat: envelopeErrorFormat });
    const response = await request(app).post('/echo?name=%00').send({ a: 1 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'malformed_request', message: MALFORMED_URL_MESSAGE } });
  });

  it('lets well-formed percent-encoded text through (multi-byte UTF-8, an encoded percent sign)', async () => {
    const { app } = await buildApp();
    await request(app).get('/nested/items/%E2%82%AC%F0%9F%98%80').expect(200, { id: '€😀' });
    await request(app).get('/nested/items/%2500').expect(200, { id: '%00' });
  });

  it("renders the router's undecodable-parameter error as 400, not 500", async () => {
    const { app } = await buildApp();
    await request(app).get('/param-error').expect(400, { message: MALFORMED_URL_MESSAGE });
  });
});

describe("createServiceApp: Express's own 4xx errors", () => {
  it("renders send's 416 (unsatisfiable Range) and 412 (failed If-Match) in the format", async () => {
    const { app } = await buildApp({ errorFormat: envelopeErrorFormat });
    const range = await request(app).get('/files/this-test').set('Range', 'bytes=99999999-');
    expect(range.status).toBe(416);
    expect(range.body).toEqual({ error: { code: 'range_not_satisfiable', message: 'Range Not Satisfiable.' } });
    const precondition = await request(app).get('/files/this-test').set('If-Match', '"no-such-etag"');
    expect(precondition.status).toBe(412);
    expect(precondition.body).toEqual({ error: { code: 'precondition_failed', message: 'Precondition Failed.' } });
    await request(app).get('/files/this-test').expect(200);
  });

  it('keeps an error that merely carries a 4xx status an internal error', async () => {
    const { app } = await buildApp();
    await request(app).get('/upstream-404').expect(500, { message: 'Server Error.' });
  });
});

describe('createServiceApp: 405 Method Not Allowed', () => {
  it('answers a served path with an unserved method with 405 and Allow, HEAD beside GET', async () => {
    const { app } = await buildApp();
    const post = await request(app).post('/records/7').send({});
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.body).toEqual({ message: 'This method is not allowed on this path; the Allow header lists the methods that are.' });
    const get = await request(app).get('/echo');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await request(app).head('/cancel')).status).toBe(405);
  });

  it('matches routes of routers mounted on a path, with the envelope code method_not_allowed', async () => {
    const { app } = await buildApp({ errorFormat: envelopeErrorFormat });
    const put = await request(app).put('/nested/items/3').send({});
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('DELETE, GET, HEAD');
    expect(put.body).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });
    await request(app).put('/nested/other').expect(404);
  });

  it("keeps Express's automatic OPTIONS answer: 200 with Allow", async () => {
    const { app } = await buildApp();
    for (const [url, allow] of [['/healthz', 'GET, HEAD'], ['/echo', 'POST'], ['/nested/items/3', 'DELETE, GET, HEAD']] as const) {
      const response = await request(app).options(url);
      expect(response.status).toBe(200);
      expect(response.headers.allow).toBe(allow);
    }
    await request(app).options('/nowhere').expect(404);
  });
});

describe('createServiceApp: probes', () => {
  it('/healthz answers 200 while the process is up', async () => {
    const { app } = await buildApp({ readiness: [{ name: 'database', check: () => Promise.reject(new Error('down')) }] });
    await request(app).get('/healthz').expect(200, { status: 'ok' });
  });

  it('/readyz answers 200 when every check passes', async () => {
    const { app } = await buildApp({
      readiness: [
        { name: 'database', check: async () => {} },
        { name: 'temporal', check: async () => {} },
      ],
    });
    await request(app).get('/readyz').expect(200, { status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('/readyz answers 503 naming failing and hung checks without leaking why', async () => {
    const { app, logs } = await buildApp({
      readinessTimeoutMs: 200,
      readiness: [
        { name: 'database', check: async () => {} },
        { name: 'temporal', check: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:7233')) },
        { name: 'ledger', check: () => new Promise(() => {}) },
        {
          name: 'broken',
          check: () => {
            throw new Error('sync throw');
          },
        },
      ],
    });
    const started = Date.now();
    const response = await request(app).get('/readyz');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      status: 'not_ready',
      checks: { database: 'ok', temporal: 'failed', ledger: 'timed_out', broken: 'failed' },
      failing: ['temporal', 'ledger', 'broken'],
    });
    expect(response.text).not.toContain('ECONNREFUSED');
    expect(logs.text()).toContain('ECONNREFUSED');
  });

  it('/readyz stays 200 when only an informational check fails, listing it under degraded', async () => {
    const { app } = await buildApp({
      readiness: [
        { name: 'database', check: async () => {} },
        { name: 'chain:litecoin', informational: true, check: () => Promise.reject(new Error('node down')) },
        { name: 'chain:bitcoin', informational: true, check: async () => {} },
      ],
    });
    await request(app)
      .get('/readyz')
      .expect(200, { status: 'ready', checks: { database: 'ok', 'chain:litecoin': 'failed', 'chain:bitcoin': 'ok' }, degraded: ['chain:litecoin'] });
  });
});
