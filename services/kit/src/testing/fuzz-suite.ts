// `@tributary/kit/testing/fuzz`: a property-based fuzz test every service runs against its real self (fresh database,
// real HTTP), with fast-check. For every operation of the service's OpenAPI document:
//  1. hostile path, query and body values (any code point, NUL, lone surrogates, raw percent-encoded bytes, extreme and
//     fractional numbers, numeric strings, wrong JSON shapes, over-long strings; multipart parts for an operation whose
//     body is multipart/form-data, see fuzz/multipart.ts), with valid, bogus or no credentials,
//     never answer a 5xx and never a status the document does not list for that operation;
//  2. query and path values that satisfy the documented schemas (integers within minimum/maximum, enum members, strings
//     within their lengths and pattern) are never refused naming that parameter (the document accepts what the server
//     accepts; `per_page=0` was schema-valid and refused).
// A failure prints fast-check's shrunk counterexample: the request that broke it. FUZZ_RUNS raises the run count for a
// longer local session; FUZZ_SEED (and FUZZ_PATH) replay a reported failure.
// A separate entry point because it defines Jest tests (it imports @jest/globals, which only loads inside Jest).
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { ServiceEnv } from '../config/index.js';
import type { OpenApiDocument } from '../openapi/index.js';
import type { ServiceDefinition } from '../runtime/definition.js';
import { operationsOf } from './fuzz/operations.js';
import { assertConformingInputsAccepted, assertHostileInputsAnswered, type FuzzCredentials, type FuzzTarget } from './fuzz/properties.js';
import { startServiceHarness, type ServiceHarness } from './service-harness.js';

export type { FuzzCredentials, FuzzRequest } from './fuzz/properties.js';

export interface FuzzSuiteOptions<C extends ServiceEnv> {
  definition: ServiceDefinition<C, object>;
  /** The document the service builds (the operations, their parameters and their statuses come from it). */
  document: () => OpenApiDocument;
  /** Extra service variables for the harness (crypto raises its rate limits so the run is not throttled). */
  env?: NodeJS.ProcessEnv;
  /** Prepares what the credentials need on the fresh database (seed data) and returns them. */
  credentials(harness: ServiceHarness): Promise<FuzzCredentials>;
  /** Runs per input of each operation (property 1) and per operation (property 2); default 25 (FUZZ_RUNS overrides). */
  numRuns?: number;
}

/** Per operation; a run is a few hundred real requests. */
const TEST_TIMEOUT_MS = 120_000;

/** Defines `<name> fuzz`: both properties for every operation of the document, against the real service. */
export function describeFuzz<C extends ServiceEnv>(options: FuzzSuiteOptions<C>): void {
  const { definition } = options;
  const operations = operationsOf(options.document());
  let h: ServiceHarness;
  let credentials: FuzzCredentials;
  const target = (): FuzzTarget => ({
    url: h.service.url,
    credentials,
    numRuns: Number(process.env.FUZZ_RUNS ?? options.numRuns ?? 25),
    ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
  });

  beforeAll(async () => {
    h = await startServiceHarness(definition, options.env ? { env: options.env } : {});
    credentials = await options.credentials(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe(`${definition.name} fuzz`, () => {
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      it(`${name}: hostile path, query and body values answer only documented statuses, never a 5xx`, () => assertHostileInputsAnswered(target(), operation), TEST_TIMEOUT_MS);
      if (operation.pathParams.length + operation.queryParams.length === 0) continue;
      it(`${name}: path and query values the document allows are never refused for that parameter`, () => assertConformingInputsAccepted(target(), operation), TEST_TIMEOUT_MS);
    }
  });
}
