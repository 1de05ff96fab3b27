// `@tributary/kit/testing/contract-fuzz`: Schemathesis (PyPI, installed by `npm test` into .stack/tools/python, see
// services/stack/src/schemathesis.ts) against a service's checked-in OpenAPI document, on the real service (fresh
// database, demo seed, real HTTP), authenticated with the seed's credentials. Next to the kit's own fuzz suite
// (fuzz-suite.ts), an independent generator reads the document as any client would. The checks:
//  - not_a_server_error: no 5xx (except /readyz, whose documented 503 means "a dependency is down");
//  - status_code_conformance: only statuses the operation documents;
//  - content_type_conformance, response_headers_conformance, response_schema_conformance: every answer matches the
//    documented content type, headers and schema.
// Left out: positive_data_acceptance (the documents cannot state business rules — "exactly one of photo_id and
// project_id", an id of the caller's team, a date in the future — so a schema-valid body is often and rightly
// refused). negative_data_rejection (a 2xx for a request the document forbids) runs in the deep run only (npm run
// fuzz): the document's formats are judged by Schemathesis's validator and the services' by zod, and a disagreement
// one random seed happens on should not fail `npm test` (it found bnpl's e-mail gap there). The run fails on
// Schemathesis's `missing_auth` and `rate_limited` warnings too: a revoked token or a throttled run would otherwise
// pass while testing nothing.
// CONTRACT_FUZZ_DEPTH=deep (npm run fuzz) runs every phase (stateful included) with many more examples;
// CONTRACT_FUZZ_SEED replays a reported run; CONTRACT_FUZZ_MAX_EXAMPLES overrides the examples per operation.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { ServiceEnv } from '../config/index.js';
import type { ServiceDefinition } from '../runtime/definition.js';
import { startServiceHarness, type ServiceHarness } from './service-harness.js';
import { CONTRACT_FUZZ_DEPTH_ENV, contractFuzzReport, DEEP_MAX_EXAMPLES, DEEP_TIMEOUT_MS, runSchemathesis, SCHEMATHESIS_PATH_ENV, SCHEMATHESIS_VERSION, type ContractFuzzCredential, type ContractFuzzExistingResource } from './schemathesis.js';

export type { ContractFuzzCredential, ContractFuzzExistingResource } from './schemathesis.js';

export interface ContractFuzzOptions<C extends ServiceEnv> {
  definition: ServiceDefinition<C, object>;
  /** The checked-in document (schema/openapi/<name>.json): what clients read, so what is checked. */
  documentPath: string;
  /** Extra service variables for the harness: the rate limits raised far above what the run sends. */
  env?: NodeJS.ProcessEnv;
  /** Seeds what the credentials need and returns one per security scheme name of the document. */
  credentials(harness: ServiceHarness): Promise<Record<string, ContractFuzzCredential>>;
  /** Path regexes left out: operations that end the credentials every other operation runs with (logout). */
  excludePaths?: string[];
  /** Paths that answer only 401/403 to these credentials by design (a device token the seed has not): not a missing_auth failure. */
  authNotSupplied?: string[];
  /** Creates resources some operations need to find (after credentials) and names them (ContractFuzzExistingResource). */
  existingResources?(harness: ServiceHarness): Promise<ContractFuzzExistingResource[]>;
  /** Examples per operation and phase in `npm test` (default 5); the deep run uses DEEP_MAX_EXAMPLES. */
  maxExamples?: number;
  /** Hard limit of the Schemathesis process in `npm test` (default 150 s); the deep run allows DEEP_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Defines `<name> contract fuzz (Schemathesis)`: one test, the whole document against the real service. */
export function describeContractFuzz<C extends ServiceEnv>(options: ContractFuzzOptions<C>): void {
  const { definition } = options;
  const deep = process.env[CONTRACT_FUZZ_DEPTH_ENV] === 'deep';
  const timeoutMs = deep ? DEEP_TIMEOUT_MS : (options.timeoutMs ?? 150_000);
  let h: ServiceHarness;
  let credentials: Record<string, ContractFuzzCredential>;
  let existingResources: ContractFuzzExistingResource[];

  beforeAll(async () => {
    h = await startServiceHarness(definition, options.env ? { env: options.env } : {});
    credentials = await options.credentials(h);
    existingResources = (await options.existingResources?.(h)) ?? [];
  });
  afterAll(async () => {
    await h?.close();
  });

  describe(`${definition.name} contract fuzz (Schemathesis)`, () => {
    it(
      'every answer to generated requests is documented (status, content type, headers, schema) and none is a 5xx',
      async () => {
        const executable = process.env[SCHEMATHESIS_PATH_ENV];
        if (!executable) {
          throw new Error(`${SCHEMATHESIS_PATH_ENV} is not set: run through \`npm test\` (it installs Schemathesis into .stack/tools/python), or point it at an \`st\` of Schemathesis ${SCHEMATHESIS_VERSION}`);
        }
        const run = await runSchemathesis({
          executable,
          documentPath: options.documentPath,
          url: h.service.url,
          credentials,
          ...(options.excludePaths ? { excludePaths: options.excludePaths } : {}),
          ...(options.authNotSupplied ? { authNotSupplied: options.authNotSupplied } : {}),
          existingResources,
          deep,
          maxExamples: Number(process.env.CONTRACT_FUZZ_MAX_EXAMPLES ?? (deep ? DEEP_MAX_EXAMPLES : (options.maxExamples ?? 5))),
          timeoutMs,
          ...(process.env.CONTRACT_FUZZ_SEED ? { seed: process.env.CONTRACT_FUZZ_SEED } : {}),
        });
        if (!run.ok) throw new Error(`Schemathesis found problems in ${definition.name} (replay: CONTRACT_FUZZ_SEED=<Seed below>):\n${contractFuzzReport(run.output)}`);
      },
      timeoutMs + 30_000,
    );
  });
}
