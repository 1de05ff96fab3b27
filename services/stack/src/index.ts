// Library surface of the runner (tests and other tooling); the CLI lives in cli.ts.
export { loadStackEnv, stackEnvSchema, type StackEnv } from './config.js';
export { StackError } from './errors.js';
export { stackPaths, findRepoRoot, type StackPaths } from './paths.js';
export { assertPortsFree, isPortFree, type PortClaim } from './ports.js';
export { ensureDatabases, startEmbeddedPostgres, withDatabase, redactUrl, type EmbeddedPostgres } from './postgres.js';
export { Supervisor, TIERS, type ManagedProcess, type SpawnOptions, type Tier } from './supervisor.js';
export {
  discoverTemporalCli,
  discoverTestServer,
  startTemporalDevServer,
  startTemporalDevServerOnFreePort,
  TemporalPortTakenError,
  waitForTemporal,
  type FoundBinary,
} from './temporal.js';
export { waitUntilReady, httpOk, workerPolling, type ReadinessCheck } from './readiness.js';
export { serviceSpecs, SERVICE_NAMES, type ServiceSpec, type ServiceName } from './services.js';
export { renderTable, credentialLines, parseSeedCredentials } from './url-table.js';
export { summaryLine, tallyJest, type Tally } from './test-runner.js';
