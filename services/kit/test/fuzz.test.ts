// The fuzz suite's own tests: its arbitraries keep their promises, and its two properties find the defects they exist
// for (a 500 from text the database cannot store, a status the document does not list, a documented bound the server
// does not honour) against a real app over real HTTP, and pass once the defect is fixed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Router, type Request } from 'express';
import fc from 'fast-check';
import { createSchema } from 'zod-openapi';
import { z } from 'zod';
import {
  AuthenticationError,
  ConflictError,
  MalformedRequestError,
  UnsupportedMediaTypeError,
  ValidationError,
  createServiceApiDocument,
  createServiceApp,
  defineApiRoute,
  envelopeErrorBody,
  envelopeErrorFormat,
  integerQueryParam,
  isWellFormedText,
  mountApiRoute,
  parseInput,
  startHttpServer,
  wellFormedText,
  type ApiRoute,
  type RunningServer,
} from '../src/index.js';
import { conformingValue, hostileUrlValue, percentEncode } from '../src/testing/fuzz/arbitraries.js';
import { operationsOf, type FuzzOperation, type JsonSchema } from '../src/testing/fuzz/operations.js';
import { assertConformingInputsAccepted, assertHostileInputsAnswered, type FuzzTarget } from '../src/testing/fuzz/properties.js';
import { capturingLogger } from './fixtures/capture-logs.js';

describe('fuzz arbitraries', () => {
  it('percentEncode keeps well-formed text exactly (it decodes back to the same string)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => decodeURIComponent(percentEncode(text)) === text));
  });

  it('hostile URL values hold only characters a request line may carry, so every one reaches the server', () => {
    fc.assert(fc.property(hostileUrlValue, (value) => /^[A-Za-z0-9\-._~%]*$/.test(value)));
  });

  it("values generated from a zod schema's document satisfy that zod schema", () => {
    const query = z.object({
      page: integerQueryParam({ min: 1, max: 500, default: 1, description: 'Page.' }),
      status: z.enum(['open', 'closed']).optional(),
      q: wellFormedText(z.string().min(2).max(30)).optional(),
      code: z.string().regex(/^[A-Z]{3}$/).optional(),
    });
    const documented = createSchema(query, { io: 'input' }).schema as JsonSchema;
    fc.assert(
      fc.property(conformingValue(documented), (value) => {
        const asQuery = Object.fromEntries(Object.entries(value as object).map(([name, item]) => [name, String(item)]));
        return query.safeParse(asQuery).success && Object.values(asQuery).every(isWellFormedText);
      }),
    );
  });
});

const bearerSecurity = [{ bearer: [] }];
const GOOD_TOKEN = 'Bearer good';

/** What PostgreSQL does with a NUL in text: the insert fails, which the app does not expect (a 500). */
function store(text: string): void {
  if (text.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
}

const limitQuery = (min: number) => z.object({ limit: integerQueryParam({ min, max: 50, default: 10, description: 'How many.' }) });

function notesApi(options: { text: z.ZodString; documentedLimitMin: number }) {
  return {
    create: defineApiRoute({
      method: 'post',
      path: '/api/notes',
      errors: [401, 422],
      operation: {
        operationId: 'createNote',
        security: bearerSecurity,
        requestBody: { content: { 'application/json': { schema: z.object({ text: options.text, pinned: z.boolean().optional() }) } } },
        responses: { '201': { description: 'Created.' } },
      },
    }),
    list: defineApiRoute({
      method: 'get',
      path: '/api/notes',
      errors: [401, 422],
      operation: {
        operationId: 'listNotes',
        security: bearerSecurity,
        requestParams: { query: limitQuery(options.documentedLimitMin) },
        responses: { '200': { description: 'Notes.' } },
      },
    }),
    attach: defineApiRoute({
      method: 'post',
      path: '/api/notes/attachments',
      errors: [401, 422],
      operation: {
        operationId: 'attachToNote',
        security: bearerSecurity,
        requestBody: { content: { 'multipart/form-data': { schema: z.object({ caption: options.text, file: z.string().meta({ format: 'binary' }) }) } } },
        responses: { '201': { description: 'Attached.' } },
      },
    }),
    get: defineApiRoute({
      method: 'get',
      path: '/api/notes/:id',
      errors: [401, 404],
      operation: {
        operationId: 'getNote',
        security: bearerSecurity,
        requestParams: { path: z.object({ id: z.string() }) },
        responses: { '200': { description: 'A note.' } },
      },
    }),
  };
}

/** The text parts of a small multipart body (the fixture's own reader; a service streams with busboy). */
async function textParts(req: Request): Promise<Record<string, string>> {
  const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1];
  if (!req.is('multipart/form-data') || !boundary) throw new UnsupportedMediaTypeError(req.headers['content-type']);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  if (!body.trimEnd().endsWith(`--${boundary}--`)) throw new MalformedRequestError('multipart cut short');
  const parts: Record<string, string> = {};
  for (const part of body.split(`--${boundary}`).slice(1, -1)) {
    const match = /name="([^"]*)"(; filename="[^"]*")?[^]*?\r\n\r\n([^]*)\r\n$/.exec(part);
    if (match && !match[2]) parts[match[1]!] = match[3]!;
  }
  return parts;
}

interface NotesApp {
  server: RunningServer;
  operations: FuzzOperation[];
}

/**
 * A notes API. `defects` picks what is wrong with it: text stored unchecked (a NUL is a 500), a documented `limit`
 * minimum of 0 the server refuses, a 409 for ids that are not digits that the document does not list.
 */
async function startNotesApp(defects: { nulReachesStorage?: boolean; limitDocumentedFromZero?: boolean; undocumentedConflict?: boolean }): Promise<NotesApp> {
  const text = defects.nulReachesStorage ? z.string().max(200) : wellFormedText(z.string().max(200));
  const api = notesApi({ text, documentedLimitMin: defects.limitDocumentedFromZero ? 0 : 1 });
  const served = notesApi({ text, documentedLimitMin: 1 });
  const authenticate = (authorization: string | undefined) => {
    if (authorization !== GOOD_TOKEN) throw new AuthenticationError();
  };
  const logger = capturingLogger('silent').logger;
  const app = await createServiceApp({
    service: 'fuzz-fixture',
    logger,
    otherBodyRoutes: [{ path: '/api/notes/attachments', mediaTypes: ['multipart/form-data'] }],
    errorFormat: envelopeErrorFormat,
    readiness: [],
    configure(express) {
      const router = Router();
      mountApiRoute(router, served.create, (req, res) => {
        authenticate(req.headers.authorization);
        store(parseInput(z.object({ text, pinned: z.boolean().optional() }), req.body).text);
        res.status(201).json({});
      });
      mountApiRoute(router, served.attach, async (req, res) => {
        authenticate(req.headers.authorization);
        const caption = (await textParts(req)).caption;
        if (caption === undefined) throw new ValidationError({ caption: ['This field is required.'] });
        store(parseInput(z.object({ caption: text }), { caption }).caption);
        res.status(201).json({});
      });
      mountApiRoute(router, served.list, (req, res) => {
        authenticate(req.headers.authorization);
        res.json(parseInput(limitQuery(1), req.query));
      });
      mountApiRoute(router, served.get, (req, res) => {
        authenticate(req.headers.authorization);
        if (defects.undocumentedConflict && !/^\d+$/.test(String(req.params.id))) throw new ConflictError('Not a number.');
        res.json({ id: req.params.id });
      });
      express.use(router);
    },
  });
  const document = createServiceApiDocument({
    title: 'notes',
    version: '1',
    restBase: '/api',
    errorBody: envelopeErrorBody,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    routes: Object.values(api) as ApiRoute[],
  });
  return { server: await startHttpServer(app, { port: 0, host: '127.0.0.1', logger }), operations: operationsOf(document) };
}

function operation(app: NotesApp, method: string, path: string): FuzzOperation {
  const found = app.operations.find((candidate) => candidate.method === method && candidate.path === path);
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

// A fixed seed: what these tests check is that the properties can find each defect, not how lucky one run is.
const target = (app: NotesApp): FuzzTarget => ({ url: app.server.url, credentials: { bearer: { authorization: GOOD_TOKEN } }, numRuns: 100, seed: 20_250_701 });

/** The failure fast-check reports: its message (with the counterexample) and the property's own message. */
async function failureOf(run: Promise<void>): Promise<{ message: string; cause: string }> {
  try {
    await run;
  } catch (error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return { message: (error as Error).message, cause: cause instanceof Error ? cause.message : String(cause) };
  }
  throw new Error('expected the property to fail');
}

describe('fuzz properties against a live app', () => {
  let broken: NotesApp;
  let fixed: NotesApp;
  beforeAll(async () => {
    broken = await startNotesApp({ nulReachesStorage: true, limitDocumentedFromZero: true, undocumentedConflict: true });
    fixed = await startNotesApp({});
  });
  afterAll(async () => {
    await broken?.server.close();
    await fixed?.server.close();
  });

  it('hostile inputs: finds a 500 from a body text the storage cannot hold and prints the request', async () => {
    const failure = await failureOf(assertHostileInputsAnswered(target(broken), operation(broken, 'POST', '/api/notes')));
    expect(failure.message).toMatch(/Counterexample: \[\{"method":"POST","url":"\/api\/notes".*"body":".*\\u0000/);
    expect(failure.cause).toMatch(/^server error \(hostile: body.*answered 500/);
  });

  it('hostile inputs: finds a 500 from a multipart text part the storage cannot hold and prints the parts', async () => {
    const failure = await failureOf(assertHostileInputsAnswered(target(broken), operation(broken, 'POST', '/api/notes/attachments')));
    expect(failure.cause).toMatch(/^server error \(hostile: multipart part caption\): POST \/api\/notes\/attachments with multipart \[.*"caption"=".*\\u0000.*answered 500/);
  });

  it('hostile inputs: finds a status the document does not list', async () => {
    const failure = await failureOf(assertHostileInputsAnswered(target(broken), operation(broken, 'GET', '/api/notes/{id}')));
    expect(failure.cause).toMatch(/^status not in the document \(200, 400, 401, 404, 500; hostile: (path parameter id|all inputs)\): GET \/api\/notes\/\S+ .*answered 409/);
  });

  it('conforming inputs: finds a documented minimum the server does not accept (the per_page=0 regression)', async () => {
    const failure = await failureOf(assertConformingInputsAccepted(target(broken), operation(broken, 'GET', '/api/notes')));
    expect(failure.message).toContain('"url":"/api/notes?limit=0"');
    expect(failure.cause).toMatch(/^schema-valid limit refused: GET \/api\/notes\?limit=0 .*answered 422/);
  });

  it('passes every property once the defects are fixed', async () => {
    // The fixture serves only its notes routes, not the standard ones every document lists.
    for (const fixedOperation of fixed.operations.filter((candidate) => candidate.path.startsWith('/api/notes'))) {
      await assertHostileInputsAnswered(target(fixed), fixedOperation);
      if (fixedOperation.pathParams.length + fixedOperation.queryParams.length > 0) await assertConformingInputsAccepted(target(fixed), fixedOperation);
    }
  });
});
