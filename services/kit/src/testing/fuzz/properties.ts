// The fuzz suite's two properties (see fuzz-suite.ts) for one operation against a running service, as promises that
// reject with fast-check's shrunk counterexample: the request that broke the property and the answer it got.
import fc from 'fast-check';
import http from 'node:http';
import { bodyWithHostileField, conformingValue, hostileBody, hostileUrlValue } from './arbitraries.js';
import { conformingParts, describeMultipart, encodeMultipart, partsWithHostileField, partsWithUnknownFields, type FuzzMultipart } from './multipart.js';
import type { FuzzOperation, FuzzParameter } from './operations.js';
import { KEYSET_CURSOR_FORMAT } from '../../validation/keyset-cursor.js';

/** Request headers per security scheme name of the document, e.g. `{ apiKey: { authorization: 'Bearer …' } }`. */
export type FuzzCredentials = Record<string, Record<string, string>>;

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  /** Which credentials: a security requirement's scheme names joined by `+`, `none` or `bogus`. */
  credentials: string;
  /** JSON text. */
  body?: string;
  /** A multipart/form-data body instead (an operation documented with one). */
  multipart?: FuzzMultipart;
}

interface FuzzResponse {
  status: number;
  contentType: string;
  body: string;
}

const BOGUS_CREDENTIALS = { authorization: 'Bearer not-a-credential' };
const REQUEST_TIMEOUT_MS = 15_000;

/** Sends exactly `request.url` (no URL normalisation, unlike fetch) and reads the whole answer. */
function send(baseUrl: string, request: FuzzRequest, headers: Record<string, string>): Promise<FuzzResponse> {
  const multipart = request.multipart ? encodeMultipart(request.multipart) : undefined;
  const contentType = multipart ? { 'content-type': multipart.contentType } : request.body === undefined ? {} : { 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const outgoing = http.request(baseUrl, {
      method: request.method,
      path: request.url,
      headers: { accept: 'application/json', ...headers, ...contentType },
      timeout: REQUEST_TIMEOUT_MS,
    });
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end(multipart ? multipart.body : request.body);
  });
}

function buildUrl(path: string, pathValues: readonly string[], params: FuzzParameter[], query: ReadonlyArray<readonly [string, string]>): string {
  let url = path;
  params.forEach((param, index) => (url = url.replace(`{${param.name}}`, pathValues[index] ?? '')));
  return query.length === 0 ? url : `${url}?${query.map(([name, value]) => `${name}=${value}`).join('&')}`;
}

/** The credential choices of an operation: each requirement whose schemes all have credentials. */
function credentialChoices(operation: FuzzOperation, credentials: FuzzCredentials): Map<string, Record<string, string>> {
  const choices = new Map<string, Record<string, string>>();
  for (const schemes of operation.security) {
    if (schemes.length === 0 || !schemes.every((scheme) => credentials[scheme])) continue;
    choices.set(schemes.join('+'), Object.assign({}, ...schemes.map((scheme) => credentials[scheme])) as Record<string, string>);
  }
  if (operation.security.length > 0 && choices.size === 0) {
    throw new Error(`fuzz: no credentials for ${operation.method} ${operation.path} (needs one of ${operation.security.map((s) => s.join('+')).join(', ')})`);
  }
  return choices;
}

function headersFor(choice: string, choices: Map<string, Record<string, string>>): Record<string, string> {
  if (choice === 'none') return {};
  if (choice === 'bogus') return BOGUS_CREDENTIALS;
  return choices.get(choice) ?? {};
}

type QueryPairs = ReadonlyArray<readonly [string, string]>;

/** A value `param`'s schema allows, as it appears in the URL. */
function encodedConforming(param: FuzzParameter): fc.Arbitrary<string> {
  return conformingValue(param.schema).map((value) => encodeURIComponent(String(value)));
}

const nonEmpty = (value: string) => value !== '';
const json = (value: unknown) => JSON.stringify(value);

/** One input made hostile while the others hold schema-valid values, or (`all inputs`) all of them at once. */
interface Focus {
  label: string;
  requests: fc.Arbitrary<FuzzRequest>;
}

/**
 * Property 1's requests, one Focus per input: a hostile value gets past its neighbours' validation to the code behind
 * it only when they are valid. Focused requests carry valid credentials mostly, so the routes' own code runs; the
 * all-inputs focus tries none and bogus ones as often as valid ones.
 */
function hostileFocuses(operation: FuzzOperation, choices: Map<string, Record<string, string>>): Focus[] {
  const hostilePath = operation.pathParams.map(() => hostileUrlValue.filter(nonEmpty));
  const validPath = operation.pathParams.map((param) => encodedConforming(param).filter(nonEmpty));
  const pairs = (name: string, values: fc.Arbitrary<string[]>) => values.map((list): QueryPairs => list.map((value) => [name, value] as const));
  // A repeated parameter arrives as an array; one hostile value alone reaches furthest.
  const hostileQuery = operation.queryParams.map((param) =>
    fc.oneof({ weight: 4, arbitrary: pairs(param.name, hostileUrlValue.map((value) => [value])) }, pairs(param.name, fc.array(fc.oneof(hostileUrlValue, encodedConforming(param)), { minLength: 2, maxLength: 3 }))),
  );
  const validQuery = operation.queryParams.map((param) => {
    // A server-issued cursor has no client-made valid value: "valid" means absent.
    if (param.schema.format === KEYSET_CURSOR_FORMAT && !param.required) return fc.constant<QueryPairs>([]);
    const present = pairs(param.name, encodedConforming(param).map((value) => [value]));
    return param.required ? present : fc.oneof(fc.constant<QueryPairs>([]), present);
  });
  const anyQuery = operation.queryParams.map((param, index) => (param.required ? fc.oneof(hostileQuery[index]!, validQuery[index]!) : fc.oneof(fc.constant<QueryPairs>([]), hostileQuery[index]!, validQuery[index]!)));
  const unknownQuery = fc.array(fc.tuple(hostileUrlValue, hostileUrlValue), { minLength: 1, maxLength: 2 });
  const validBody = operation.body ? conformingValue(operation.body).map(json) : fc.constant(undefined);
  const badBody = operation.body ? hostileBody(operation.body).map(json) : fc.constant(undefined);

  const valid = [...choices.keys()];
  const invalid = fc.constantFrom('none', 'bogus');
  const mostlyValid = valid.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...valid) }, invalid) : invalid;
  const anyCredentials = fc.constantFrom('none', 'bogus', ...valid);
  const focus = (label: string, path: Array<fc.Arbitrary<string>>, query: Array<fc.Arbitrary<QueryPairs>>, body: fc.Arbitrary<string | undefined>, extra: fc.Arbitrary<QueryPairs> = fc.constant([]), credentials = mostlyValid): Focus => ({
    label,
    requests: fc.record({ pathValues: fc.tuple(...path), query: fc.tuple(...query), extra, body, credentials }).map((parts) => ({
      method: operation.method,
      url: buildUrl(operation.path, parts.pathValues, operation.pathParams, [...parts.query.flat(), ...parts.extra]),
      credentials: parts.credentials,
      ...(parts.body === undefined ? {} : { body: parts.body }),
    })),
  });
  const swap = <T>(list: T[], index: number, replacement: T) => list.map((item, at) => (at === index ? replacement : item));
  return [
    focus('all inputs', hostilePath, anyQuery, fc.option(badBody, { nil: undefined, freq: 8 }), fc.array(fc.tuple(hostileUrlValue, hostileUrlValue), { maxLength: 2 }), anyCredentials),
    ...operation.pathParams.map((param, index) => focus(`path parameter ${param.name}`, swap(validPath, index, hostilePath[index]!), validQuery, validBody)),
    ...operation.queryParams.map((param, index) => focus(`query parameter ${param.name}`, validPath, swap(validQuery, index, hostileQuery[index]!), validBody)),
    focus('unknown query parameters', validPath, validQuery, validBody, unknownQuery),
    ...(operation.body ? [focus('body', validPath, validQuery, badBody)] : []),
    ...Object.keys(operation.body?.properties ?? {}).map((field) =>
      focus(`body field ${field}`, validPath, validQuery, bodyWithHostileField(operation.body ?? {}, field).map(json)),
    ),
    ...(operation.multipart ? multipartFocuses(operation, operation.multipart, fc.tuple(...validPath), mostlyValid) : []),
  ];
}

/** A multipart operation's focuses: valid parts (whole or cut short), unknown parts, and each part made hostile. */
function multipartFocuses(operation: FuzzOperation, schema: NonNullable<FuzzOperation['multipart']>, pathValues: fc.Arbitrary<string[]>, credentials: fc.Arbitrary<string>): Focus[] {
  const focus = (label: string, parts: fc.Arbitrary<FuzzMultipart['parts']>, truncated: fc.Arbitrary<boolean> = fc.constant(false)): Focus => ({
    label,
    requests: fc.record({ pathValues, parts, truncated, credentials }).map(({ pathValues, parts, truncated, credentials }) => ({
      method: operation.method,
      url: buildUrl(operation.path, pathValues, operation.pathParams, []),
      credentials,
      multipart: { parts, truncated },
    })),
  });
  return [
    focus('multipart body', conformingParts(schema), fc.boolean()),
    focus('unknown multipart parts', partsWithUnknownFields(schema)),
    ...Object.keys(schema.properties ?? {}).map((field) => focus(`multipart part ${field}`, partsWithHostileField(schema, field))),
  ];
}

/**
 * Property 2's requests: documented parameters with values their schemas allow, valid credentials, `{}` as a body. A
 * parameter only the server can fill (format KEYSET_CURSOR_FORMAT: the next_cursor of a previous page) is left out
 * here; property 1 still sends it hostile values.
 */
function conformingRequests(operation: FuzzOperation, choices: Map<string, Record<string, string>>): fc.Arbitrary<FuzzRequest> {
  const clientFillable = operation.queryParams.filter((param) => param.schema.format !== KEYSET_CURSOR_FORMAT);
  const query = fc.record(Object.fromEntries(clientFillable.map((param) => [param.name, encodedConforming(param)])), {
    requiredKeys: operation.queryParams.filter((param) => param.required).map((param) => param.name),
  });
  const credentials = [...choices.keys()][0] ?? 'none';
  return fc
    .record({ pathValues: fc.tuple(...operation.pathParams.map((param) => encodedConforming(param).filter(nonEmpty))), query })
    .map(({ pathValues, query }) => ({
      method: operation.method,
      url: buildUrl(operation.path, pathValues, operation.pathParams, Object.entries(query)),
      credentials,
      ...(operation.body ? { body: '{}' } : {}),
    }));
}

function describeResponse(request: FuzzRequest, response: FuzzResponse): string {
  const body = request.multipart ? ` with ${describeMultipart(request.multipart)}` : '';
  return `${request.method} ${request.url}${body} (credentials: ${request.credentials}) answered ${response.status} ${response.contentType}: ${response.body.slice(0, 500)}`;
}

/** Property 1's verdict: no 5xx (a documented 503 of /readyz aside), every status documented, JSON where documented. */
function assertDocumentedAnswer(operation: FuzzOperation, request: FuzzRequest, response: FuzzResponse, focus: string): void {
  const status = String(response.status);
  const documented = operation.statuses.has(status) || operation.statuses.has('default');
  if (response.status === 500 || (response.status > 500 && !documented)) throw new Error(`server error (hostile: ${focus}): ${describeResponse(request, response)}`);
  if (!documented) throw new Error(`status not in the document (${[...operation.statuses].join(', ')}; hostile: ${focus}): ${describeResponse(request, response)}`);
  if (operation.jsonStatuses.has(status) && !response.contentType.startsWith('application/json')) {
    throw new Error(`documented as JSON (hostile: ${focus}): ${describeResponse(request, response)}`);
  }
}

/** The fields a 4xx body names: crypto's `errors`, the envelope's `error.fields`. */
function refusedFields(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { errors?: object; error?: { fields?: object } };
    return Object.keys(parsed.errors ?? parsed.error?.fields ?? {});
  } catch {
    return [];
  }
}

/** Property 2's verdict: a request made only of documented, schema-valid parameters is never refused for one of them. */
function assertAccepted(operation: FuzzOperation, request: FuzzRequest, response: FuzzResponse): void {
  if (response.status >= 500 || response.status === 400) throw new Error(`schema-valid request refused: ${describeResponse(request, response)}`);
  const names = new Set([...operation.pathParams, ...operation.queryParams].map((param) => param.name));
  const named = refusedFields(response.body).filter((field) => names.has(field.split('.')[0] ?? field));
  if (named.length > 0) throw new Error(`schema-valid ${named.join(', ')} refused: ${describeResponse(request, response)}`);
}

function runParameters(target: FuzzTarget): fc.Parameters<[FuzzRequest]> {
  return {
    numRuns: target.numRuns,
    ...(target.seed !== undefined ? { seed: target.seed } : {}),
    ...(target.path !== undefined ? { path: target.path } : {}),
  };
}

/** Where and how often to fuzz. */
export interface FuzzTarget {
  /** The running service, `http://127.0.0.1:<port>`. */
  url: string;
  credentials: FuzzCredentials;
  /** Runs per focus (property 1) or per operation (property 2). */
  numRuns: number;
  /** fast-check's seed (and path) to replay a reported failure; default a fresh seed per run. */
  seed?: number;
  path?: string;
}

/** Property 1: hostile path, query and body values answer only statuses the document lists, never a 5xx. */
export async function assertHostileInputsAnswered(target: FuzzTarget, operation: FuzzOperation): Promise<void> {
  const choices = credentialChoices(operation, target.credentials);
  for (const focus of hostileFocuses(operation, choices)) {
    await fc.assert(
      fc.asyncProperty(focus.requests, async (request) => {
        assertDocumentedAnswer(operation, request, await send(target.url, request, headersFor(request.credentials, choices)), focus.label);
      }),
      runParameters(target),
    );
  }
}

/** Property 2: path and query values the document allows are never refused for that parameter. */
export async function assertConformingInputsAccepted(target: FuzzTarget, operation: FuzzOperation): Promise<void> {
  const choices = credentialChoices(operation, target.credentials);
  await fc.assert(
    fc.asyncProperty(conformingRequests(operation, choices), async (request) => {
      assertAccepted(operation, request, await send(target.url, request, headersFor(request.credentials, choices)));
    }),
    runParameters(target),
  );
}
