// Schemathesis (PyPI) runs for the contract-fuzz suite (contract-fuzz-suite.ts): the pinned version, the config a run
// writes, the CLI call and the part of its report a failing test shows. No Jest here: the stack runner imports the
// pin and the variable name from this module to install Schemathesis (services/stack/src/schemathesis.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The credential of one security scheme of the document, by its kind. */
export type ContractFuzzCredential = { bearer: string } | { apiKey: string };

/** The pinned release (services/stack/src/schemathesis.ts installs it): its CLI flags change between releases. */
export const SCHEMATHESIS_VERSION = '4.32.5';
/** The variable naming the `st` executable the suite runs (the stack runner sets it). */
export const SCHEMATHESIS_PATH_ENV = 'SCHEMATHESIS_PATH';
/** `deep` selects the deep run (npm run fuzz sets it). */
export const CONTRACT_FUZZ_DEPTH_ENV = 'CONTRACT_FUZZ_DEPTH';

/** The checks of every run (contract-fuzz-suite.ts's header says why these). */
export const CONTRACT_FUZZ_CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance'];
/** The deep run adds: a 2xx for a request the document forbids is a gap between document and validation. */
const DEEP_EXTRA_CHECKS = ['negative_data_rejection'];
/** `npm test` skips the stateful phase (chains of linked calls): the slowest and the least about the contract. */
const QUICK_PHASES = ['examples', 'coverage', 'fuzzing'];
const DEEP_PHASES = [...QUICK_PHASES, 'stateful'];
/** The deep run (npm run fuzz): examples per operation and phase, and its time limit. */
export const DEEP_MAX_EXAMPLES = 100;
export const DEEP_TIMEOUT_MS = 60 * 60_000;
/** Warnings that mean the run did not test what it claims. */
const FAILING_WARNINGS = ['missing_auth', 'rate_limited', 'unused_openapi_auth'];
/** Output kept in a failure message: the failures section, not the progress lines. */
const REPORT_TAIL_LINES = 400;

const tomlString = (value: string): string => JSON.stringify(value);
const tomlList = (values: string[]): string => `[${values.map(tomlString).join(', ')}]`;

/**
 * Path parameters naming a resource that exists when the run starts, for one operation (`DELETE` of
 * `/api/v1/auth/tokens/{token}`): without them every generated id is unknown (404), so Schemathesis never sees the
 * operation accept a request and, in a phase where most generated Authorization headers are refused, reports it as
 * unauthenticated (missing_auth). Every case of that operation uses these values.
 */
export interface ContractFuzzExistingResource {
  method: string;
  /** The document's path template. */
  path: string;
  parameters: Record<string, string>;
}

/** The schemathesis.toml of a run: credentials per scheme, the per-operation exceptions, the failing warnings. */
export function contractFuzzConfig(
  credentials: Record<string, ContractFuzzCredential>,
  opts: { authNotSupplied?: string[]; existingResources?: ContractFuzzExistingResource[] } = {},
): string {
  const lines = [`warnings = { fail-on = ${tomlList(FAILING_WARNINGS)} }`, ''];
  for (const [scheme, credential] of Object.entries(credentials)) {
    lines.push(`[auth.openapi.${scheme}]`, 'bearer' in credential ? `bearer = ${tomlString(credential.bearer)}` : `api_key = ${tomlString(credential.apiKey)}`, '');
  }
  // /readyz documents 503 (a dependency down, e.g. Temporal slow under a loaded test run): not a server fault.
  lines.push('[[operations]]', 'include-path = "/readyz"', 'checks.not_a_server_error.enabled = false', '');
  for (const p of opts.authNotSupplied ?? []) {
    lines.push('[[operations]]', `include-path = ${tomlString(p)}`, `warnings = { fail-on = ${tomlList(FAILING_WARNINGS.filter((w) => w !== 'missing_auth'))} }`, '');
  }
  for (const resource of opts.existingResources ?? []) {
    const values = Object.entries(resource.parameters).map(([name, value]) => `${tomlString(name)} = ${tomlString(value)}`);
    lines.push('[[operations]]', `include-path = ${tomlString(resource.path)}`, `include-method = ${tomlString(resource.method.toUpperCase())}`, `parameters = { ${values.join(', ')} }`, '');
  }
  return lines.join('\n');
}

export interface ContractFuzzRun {
  ok: boolean;
  /** Schemathesis's output (stdout and stderr). */
  output: string;
}

/** Runs `st run` once against url; resolves with its verdict and output (rejects only when it cannot start). */
export async function runSchemathesis(opts: {
  executable: string;
  documentPath: string;
  url: string;
  credentials: Record<string, ContractFuzzCredential>;
  excludePaths?: string[];
  authNotSupplied?: string[];
  existingResources?: ContractFuzzExistingResource[];
  deep: boolean;
  maxExamples: number;
  timeoutMs: number;
  seed?: string;
}): Promise<ContractFuzzRun> {
  // A scratch folder as the working directory: Schemathesis and Hypothesis leave caches in it.
  const dir = await mkdtemp(path.join(tmpdir(), 'contract-fuzz-'));
  try {
    const config = path.join(dir, 'schemathesis.toml');
    await writeFile(config, contractFuzzConfig(opts.credentials, { authNotSupplied: opts.authNotSupplied ?? [], existingResources: opts.existingResources ?? [] }));
    const args = [
      '--config-file', config, '--no-color',
      'run', opts.documentPath,
      '--url', opts.url,
      '--checks', [...CONTRACT_FUZZ_CHECKS, ...(opts.deep ? DEEP_EXTRA_CHECKS : [])].join(','),
      '--phases', (opts.deep ? DEEP_PHASES : QUICK_PHASES).join(','),
      '--max-examples', String(opts.maxExamples),
      // One worker: Python 3.11's ast module is not thread-safe and Hypothesis parses lambdas in each worker thread
      // ("AST constructor recursion depth mismatch" errors with --workers 2); the service shares the 2 cores anyway.
      '--workers', '1',
      '--generation-database', 'none',
      '--request-timeout', '30',
      ...(opts.excludePaths?.length ? ['--exclude-path-regex', opts.excludePaths.join('|')] : []),
      ...(opts.seed ? ['--seed', opts.seed] : []),
    ];
    return await new Promise<ContractFuzzRun>((resolve, reject) => {
      execFile(opts.executable, args, { cwd: dir, timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (!error) return resolve({ ok: true, output });
        const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        if (typeof e.code === 'string') return reject(new Error(`cannot run ${opts.executable}: ${e.message}`));
        const timedOut = e.killed === true ? `\n\nSchemathesis did not finish within ${opts.timeoutMs / 1000}s and was stopped.` : '';
        resolve({ ok: false, output: `${output}${timedOut}` });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The part of a report worth reading in a test failure: from the FAILURES/ERRORS section on, at most REPORT_TAIL_LINES. */
export function contractFuzzReport(output: string): string {
  const start = output.search(/^=+ (FAILURES|ERRORS|WARNINGS) =+$/m);
  const lines = (start >= 0 ? output.slice(start) : output).split('\n');
  return lines.slice(-REPORT_TAIL_LINES).join('\n');
}

