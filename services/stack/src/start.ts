// `npm start`: PostgreSQL + Temporal, then per service migrate → seed → serve + worker, then the
// gateway; waits for readiness, prints the URL table, and stops everything on Ctrl-C / SIGTERM.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEVELOPMENT_NODE_ENVS, METRICS_PATH, SERVICE_NODE_FLAGS, describeNodeEnv, isDevelopmentNodeEnv } from '@tributary/kit';
import { loadStackEnv, type StackEnv } from './config.js';
import { StackError } from './errors.js';
import { acquireStartLock, onShutdown } from './lifecycle.js';
import { stackPaths, type StackPaths } from './paths.js';
import { assertPortsFree, type PortClaim } from './ports.js';
import { checkExternalPostgres, ensureDatabases, redactUrl, startEmbeddedPostgres, withDatabase } from './postgres.js';
import { bold, createProgress, dim, seconds, type Progress } from './progress.js';
import { httpOk, waitUntilReady, workerPolling, type ReadinessCheck } from './readiness.js';
import { API_DOCS_PATH, demoAuthorization, displayHost, gatewayEntry, GRAPHQL_PATH, serviceSpecs, SERVICE_NAMES, type ServiceName, type ServiceSpec } from './services.js';
import { Supervisor } from './supervisor.js';
import { discoverTemporalCli, SOURCE_LABEL, startTemporalDevServer, waitForTemporal } from './temporal.js';
import { ensureEncryptionKey } from './secrets.js';
import { mailPlan, mailPortClaims, mailRows, startMailDev, type MailPlan, type RunningMail } from './maildev.js';
import { credentialLines, parseSeedCredentials, renderTable } from './url-table.js';
import { assertChainsPlan, chainRows, chainsPortClaims, chainsRequested, removeChainsState, startChains, type RunningChains } from './chains.js';

export interface StartOptions {
  verbose: boolean;
  /** Run only these services (no gateway unless all three run). */
  only?: ServiceName[];
  /** Provision PostgreSQL and Temporal only (to run a service by hand). */
  infraOnly: boolean;
  /** --chains: a Litecoin regtest node with a demo wallet, an anvil (ethereum) node, miners; crypto on regtest (also TRIBUTARY_CHAINS=1). */
  chains?: boolean;
}

interface Provisioned {
  databaseUrls: Record<ServiceName, string>;
  postgresLabel: string;
  temporalAddress: string;
  temporalLabel: string;
  temporalUi?: string;
  /** Where the services' mail goes (MailDev, or SMTP_URL); none when bnpl does not run. */
  mail?: RunningMail;
  /** --chains: the local chain nodes crypto is pointed at. */
  chains?: RunningChains;
}

function portClaims(env: StackEnv, specs: ServiceSpec[], opts: StartOptions, embeddedPg: boolean, mail: MailPlan | undefined, chains: boolean): PortClaim[] {
  const claims: PortClaim[] = [...mailPortClaims(mail), ...(chains ? chainsPortClaims(env) : [])];
  if (!opts.infraOnly) {
    for (const spec of specs) {
      claims.push({ variable: spec.portVariable, port: spec.port, purpose: spec.name });
      claims.push({ variable: spec.workerMetricsPortVariable, port: spec.workerMetricsPort, purpose: `${spec.name} worker metrics` });
    }
    if (specs.length === SERVICE_NAMES.length) claims.push({ variable: 'GATEWAY_PORT', port: env.GATEWAY_PORT, purpose: 'gateway' });
  }
  if (!env.TEMPORAL_ADDRESS) {
    claims.push({ variable: 'TEMPORAL_PORT', port: env.TEMPORAL_PORT, purpose: 'Temporal' });
    claims.push({ variable: 'TEMPORAL_UI_PORT', port: env.TEMPORAL_UI_PORT, purpose: 'Temporal UI' });
  }
  if (embeddedPg) claims.push({ variable: 'POSTGRES_PORT', port: env.POSTGRES_PORT, purpose: 'embedded PostgreSQL' });
  return claims;
}

async function provision(env: StackEnv, paths: StackPaths, supervisor: Supervisor, progress: Progress, specs: ServiceSpec[]): Promise<Provisioned> {
  const perService = { bnpl: env.BNPL_DATABASE_URL, crypto: env.CRYPTO_DATABASE_URL, photos: env.PHOTOS_DATABASE_URL };
  let serverUrl: string | undefined;
  let postgresLabel: string;
  const needServer = specs.some((s) => !perService[s.name]);
  if (needServer && env.DATABASE_URL) {
    serverUrl = env.DATABASE_URL;
    await progress.step('PostgreSQL: DATABASE_URL', () => checkExternalPostgres(env.DATABASE_URL!), () => redactUrl(env.DATABASE_URL!));
    postgresLabel = `${redactUrl(serverUrl)} (DATABASE_URL)`;
  } else if (needServer) {
    const pg = await progress.step(
      `PostgreSQL: embedded, port ${env.POSTGRES_PORT}, data in ${path.relative(paths.root, paths.postgres)}/`,
      () => startEmbeddedPostgres({ dataDir: paths.postgres, port: env.POSTGRES_PORT, supervisor }),
      (p) => (p.initialised ? 'new cluster initialised' : 'existing data kept'),
    );
    serverUrl = pg.url;
    postgresLabel = `${redactUrl(pg.url).replace(/\/postgres$/, '')} (embedded, ${path.relative(paths.root, paths.postgres)}/)`;
  } else {
    postgresLabel = 'per-service *_DATABASE_URL';
  }
  const missing = specs.filter((s) => !perService[s.name]).map((s) => s.database);
  if (serverUrl && missing.length) {
    await progress.step(`databases ${missing.join(', ')}`, () => ensureDatabases(serverUrl!, missing), (created) =>
      created.length ? `created ${created.join(', ')}` : 'present',
    );
  }
  const databaseUrls = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, perService[name] ?? (serverUrl ? withDatabase(serverUrl, `tributary_${name}`) : '')]),
  ) as Record<ServiceName, string>;

  if (env.TEMPORAL_ADDRESS) {
    const address = env.TEMPORAL_ADDRESS;
    await progress.step(`Temporal: TEMPORAL_ADDRESS ${address}`, () =>
      waitForTemporal(address, env.TEMPORAL_NAMESPACE, { timeoutMs: 15_000 }),
    );
    return { databaseUrls, postgresLabel, temporalAddress: address, temporalLabel: `${address} (TEMPORAL_ADDRESS)` };
  }
  const cli = await progress.step(
    'Temporal CLI',
    () =>
      discoverTemporalCli({
        pythonTools: paths.pythonTools,
        sdkDownloads: paths.sdkDownloads,
        onAttempt: (m) => progress.info(m),
      }),
    (found) => `${found.version} ${SOURCE_LABEL[found.source]}: ${found.path}`,
  );
  const server = await progress.step(
    `Temporal dev server: port ${env.TEMPORAL_PORT}, UI ${env.TEMPORAL_UI_PORT}, data in ${path.relative(paths.root, paths.temporalDb)}`,
    () =>
      startTemporalDevServer({
        cli: cli.path,
        supervisor,
        port: env.TEMPORAL_PORT,
        uiPort: env.TEMPORAL_UI_PORT,
        dbFile: paths.temporalDb,
        namespace: env.TEMPORAL_NAMESPACE,
      }),
  );
  return {
    databaseUrls,
    postgresLabel,
    temporalAddress: server.address,
    temporalLabel: `${server.address} (dev server, ${path.relative(paths.root, paths.temporalDb)})`,
    temporalUi: `http://localhost:${env.TEMPORAL_UI_PORT}`,
  };
}

/**
 * The NODE_ENV every process `npm start` runs gets: the caller's when set (development or test, checked by
 * planStart), else `development`, the one under which `seed` runs.
 */
export function stackNodeEnv(callerEnv: NodeJS.ProcessEnv = process.env): string {
  return callerEnv['NODE_ENV']?.trim() || 'development';
}

/** `npm start` runs the services for development: with another NODE_ENV, `seed` would refuse (and rightly so). */
export function assertDevelopmentNodeEnv(callerEnv: NodeJS.ProcessEnv = process.env): void {
  const nodeEnv = stackNodeEnv(callerEnv);
  if (!isDevelopmentNodeEnv(nodeEnv)) {
    throw new StackError(
      `${describeNodeEnv(nodeEnv)}: npm start runs the services for development, where seed writes the demo credentials`,
      `unset NODE_ENV (npm start sets development) or set it to ${DEVELOPMENT_NODE_ENVS.join(' or ')}; run a deployment's built entry points directly (README, "Production")`,
    );
  }
}

function serviceEnv(env: StackEnv, spec: ServiceSpec, infra: Provisioned, encryptionKey: string, paths: StackPaths): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: stackNodeEnv(),
    PORT: String(spec.port),
    HOST: env.HOST,
    DATABASE_URL: infra.databaseUrls[spec.name],
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_NAMESPACE: env.TEMPORAL_NAMESPACE,
    PUBLIC_BASE_URL: process.env[`${spec.name.toUpperCase()}_PUBLIC_BASE_URL`] ?? `http://${displayHost(env.HOST)}:${spec.port}`,
    LOG_LEVEL: env.LOG_LEVEL,
    // An explicit SECRETS_ENCRYPTION_KEY wins; otherwise the key kept in .stack/secrets/encryption.key.
    SECRETS_ENCRYPTION_KEY: process.env['SECRETS_ENCRYPTION_KEY'] || encryptionKey,
    ...(infra.mail ? { SMTP_URL: infra.mail.smtpUrl } : {}),
    // photos keeps uploaded media on local disk under .stack/media unless told otherwise (or S3_BUCKET is set).
    ...(spec.name === 'photos' ? { MEDIA_STORAGE_DIR: process.env['MEDIA_STORAGE_DIR'] || paths.media } : {}),
    // --chains: crypto on regtest, its watchers on the local node (migrate, seed, serve and worker alike).
    ...(spec.name === 'crypto' && infra.chains ? infra.chains.serviceEnv : {}),
  };
}

/** What one `npm start` runs, decided before anything starts. */
interface StartPlan {
  opts: StartOptions;
  paths: StackPaths;
  env: StackEnv;
  specs: ServiceSpec[];
  withGateway: boolean;
  embeddedPg: boolean;
  mail: MailPlan | undefined;
  /** --chains or TRIBUTARY_CHAINS. */
  chains: boolean;
  /** Run before the processes stop (the miners first, so they never call a node that is going away). */
  beforeStop: Array<() => void>;
  startedAt: number;
}

type Credentials = Map<ServiceName, Record<string, unknown> | undefined>;

/** A stop request (Ctrl-C, SIGTERM, the launcher gone, a child that died): what start() races its work against. */
interface StopWatch {
  requested: Promise<number>;
  readonly stopping: boolean;
  markStopping(): void;
}

export async function start(opts: StartOptions): Promise<number> {
  const plan = planStart(opts);
  const progress = createProgress();
  const releaseLock = acquireStartLock(plan.paths.lockFile);
  // Left by a start that did not stop cleanly: the admin dispatcher must not take this start for a --chains one.
  removeChainsState(plan.paths.chainsState);
  const supervisor = new Supervisor({ logDir: plan.paths.logs, verbose: opts.verbose });
  const stop = watchForStop(supervisor, progress);
  let code: number;
  try {
    // Everything races against a stop request, so Ctrl-C during startup also cleans up.
    const running = bringUp(plan, supervisor, progress, stop);
    running.catch(() => undefined); // after a stop request it may still reject; the race below reports
    code = await Promise.race([running, stop.requested]);
  } catch (error) {
    if (!stop.stopping) progress.fail(error);
    code = stop.stopping ? await stop.requested : 1;
  }
  stop.markStopping();
  for (const hook of plan.beforeStop) hook();
  await stopEverything(supervisor);
  releaseLock();
  return code;
}

/** The services to run, whether the gateway runs, whether PostgreSQL is embedded; refuses a tree that is not built. */
function planStart(opts: StartOptions): StartPlan {
  if (!opts.infraOnly) assertDevelopmentNodeEnv();
  const paths = stackPaths();
  const env = loadStackEnv();
  const specs = serviceSpecs(paths.root, env).filter((s) => !opts.only || opts.only.includes(s.name));
  const withGateway = !opts.infraOnly && specs.length === SERVICE_NAMES.length;
  if (!opts.infraOnly) {
    const missing = [...specs.map((s) => s.cli), ...(withGateway ? [gatewayEntry(paths.root)] : [])].filter((f) => !existsSync(f));
    if (missing.length) {
      throw new StackError(
        `not built: ${missing.map((f) => path.relative(paths.root, f)).join(', ')}`,
        'run `npm run build` (npm start builds first when started through `npm start`)',
      );
    }
  }
  const embeddedPg = !env.DATABASE_URL && specs.some((s) => !env[s.databaseVariable as 'BNPL_DATABASE_URL']);
  const chains = chainsRequested(opts.chains ?? false, env);
  if (chains) assertChainsPlan(specs.map((s) => s.name), opts.infraOnly);
  return { opts, paths, env, specs, withGateway, embeddedPg, mail: mailPlan(env, specs, opts.infraOnly), chains, beforeStop: [], startedAt: Date.now() };
}

function watchForStop(supervisor: Supervisor, progress: Progress): StopWatch {
  let resolveStop: (code: number) => void = () => undefined;
  const requested = new Promise<number>((resolve) => (resolveStop = resolve));
  let stopping = false;
  onShutdown((reason) => {
    console.log(`\n[stack] ${reason === 'launcher-exit' ? 'launcher exited' : reason} — stopping…`);
    stopping = true;
    supervisor.beginShutdown();
    resolveStop(reason === 'SIGINT' ? 130 : reason === 'SIGTERM' ? 143 : 129);
  });
  supervisor.onUnexpectedExit((proc, exit) => {
    if (stopping) return;
    progress.fail(
      new StackError(
        `${proc.name} exited unexpectedly (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}):\n${proc.tail(10).replace(/^/gm, '    ')}`,
        `read ${proc.logFile}`,
        proc.logFile,
      ),
    );
    resolveStop(1);
  });
  return {
    requested,
    get stopping() {
      return stopping;
    },
    markStopping: () => {
      stopping = true;
    },
  };
}

/** Ports, infrastructure, migrations and seeds, then the processes; resolves (with the exit code) once a stop is asked for. */
async function bringUp(plan: StartPlan, supervisor: Supervisor, progress: Progress, stop: StopWatch): Promise<number> {
  const { env, paths, specs, opts } = plan;
  await progress.step('ports', () => assertPortsFree(portClaims(env, specs, opts, plan.embeddedPg, plan.mail, plan.chains), env.HOST), () => 'free');
  const infra = await provision(env, paths, supervisor, progress, specs);
  infra.mail = await provisionMail(plan, supervisor, progress);
  if (plan.chains) {
    const chains = await startChains({ env, paths, supervisor, progress });
    plan.beforeStop.push(() => chains.stop());
    infra.chains = chains;
  }
  const encryptionKey = ensureEncryptionKey(paths.encryptionKey);
  if (opts.infraOnly) {
    printInfra(infra, env, paths);
    return stop.requested;
  }
  const credentials = await migrateAndSeed(plan, supervisor, progress, infra, encryptionKey);
  const checks = [...spawnServices(plan, supervisor, infra, encryptionKey, credentials), ...spawnGateway(plan, supervisor, credentials)];
  await progress.step(`ready: ${checks.length} processes`, () => waitUntilReady(checks, env.READY_TIMEOUT * 1000));
  console.log(`\n${bold(`Tributary is up in ${seconds(Date.now() - plan.startedAt)}.`)} Logs: ${path.relative(paths.root, paths.logs)}/. Ctrl-C stops everything.\n`);
  console.log(urlTable(env, specs, plan.withGateway, infra, credentials, paths));
  console.log('');
  return stop.requested;
}

/** MailDev (or the SMTP_URL server) for the services' mail, when bnpl runs. */
async function provisionMail(plan: StartPlan, supervisor: Supervisor, progress: Progress): Promise<RunningMail | undefined> {
  const mail = plan.mail;
  if (!mail) return undefined;
  if (mail.kind === 'external') {
    progress.info(`mail: SMTP_URL ${redactUrl(mail.smtpUrl)} (no MailDev)`);
    return { smtpUrl: mail.smtpUrl };
  }
  const { env, paths } = plan;
  return progress.step(`MailDev: SMTP ${mail.smtpPort}, inbox ${mail.webPort}, messages in ${path.relative(paths.root, paths.maildev)}/`, () =>
    startMailDev({ supervisor, host: env.HOST, displayHost: displayHost(env.HOST), smtpPort: mail.smtpPort, webPort: mail.webPort, mailDirectory: paths.maildev }),
  );
}

/** Each service's `migrate` then `seed` (the services in parallel); returns the credentials each seed printed. */
async function migrateAndSeed(plan: StartPlan, supervisor: Supervisor, progress: Progress, infra: Provisioned, encryptionKey: string): Promise<Credentials> {
  const credentials: Credentials = new Map();
  await Promise.all(
    plan.specs.map(async (spec) => {
      const senv = serviceEnv(plan.env, spec, infra, encryptionKey, plan.paths);
      const command = { command: process.execPath, env: senv, cwd: plan.paths.root };
      await progress.step(`${spec.name}: migrate`, () => supervisor.run({ ...command, name: `${spec.name}-migrate`, args: [spec.cli, 'migrate'] }));
      const seed = await progress.step(`${spec.name}: seed demo data`, () =>
        supervisor.run({ ...command, name: `${spec.name}-seed`, args: [spec.cli, 'seed'], captureStdout: true }),
      );
      credentials.set(spec.name, parseSeedCredentials(seed.stdout));
    }),
  );
  return credentials;
}

/** Each service's `serve` and `worker`, with what tells that they are ready (/readyz, a poller on the task queue). */
function spawnServices(plan: StartPlan, supervisor: Supervisor, infra: Provisioned, encryptionKey: string, credentials: Credentials): ReadinessCheck[] {
  const { env, paths } = plan;
  const spawnedAt = Date.now();
  return plan.specs.flatMap((spec): ReadinessCheck[] => {
    const senv = serviceEnv(env, spec, infra, encryptionKey, paths);
    // Each service's GraphiQL page is pre-filled with its own demo credential only.
    const serveEnv = { ...senv, GRAPHIQL_DEMO_AUTHORIZATION: demoAuthorization([spec], credentials) };
    const serve = supervisor.spawn({ name: `${spec.name}-serve`, command: process.execPath, args: [...SERVICE_NODE_FLAGS, spec.cli, 'serve'], env: serveEnv, cwd: paths.root, tier: 'service' });
    const workerEnv = { ...senv, METRICS_PORT: String(spec.workerMetricsPort) };
    const worker = supervisor.spawn({ name: `${spec.name}-worker`, command: process.execPath, args: [...SERVICE_NODE_FLAGS, spec.cli, 'worker'], env: workerEnv, cwd: paths.root, tier: 'service' });
    return [
      { name: `${spec.name} serve (/readyz)`, proc: serve, probe: () => httpOk(`http://127.0.0.1:${spec.port}/readyz`) },
      {
        name: `${spec.name} worker (task queue ${spec.taskQueue})`,
        proc: worker,
        probe: () => workerPolling(infra.temporalAddress, env.TEMPORAL_NAMESPACE, spec.taskQueue, spawnedAt),
      },
    ];
  });
}

/** The gateway over the services' subgraphs, when all three run. */
function spawnGateway(plan: StartPlan, supervisor: Supervisor, credentials: Credentials): ReadinessCheck[] {
  const { env, paths, specs } = plan;
  if (!plan.withGateway) return [];
  const url = (s: ServiceSpec): string => `http://127.0.0.1:${s.port}${GRAPHQL_PATH}`;
  const byName = Object.fromEntries(specs.map((s) => [s.name, s])) as Record<ServiceName, ServiceSpec>;
  const gateway = supervisor.spawn({
    name: 'gateway',
    command: process.execPath,
    args: [gatewayEntry(paths.root)],
    cwd: paths.root,
    tier: 'service',
    env: {
      ...process.env,
      NODE_ENV: stackNodeEnv(),
      PORT: String(env.GATEWAY_PORT),
      HOST: env.HOST,
      LOG_LEVEL: env.LOG_LEVEL,
      BNPL_SUBGRAPH_URL: url(byName.bnpl),
      CRYPTO_SUBGRAPH_URL: url(byName.crypto),
      PHOTOS_SUBGRAPH_URL: url(byName.photos),
      GRAPHIQL_DEMO_AUTHORIZATION: demoAuthorization(specs, credentials),
    },
  });
  return [{ name: 'gateway (/readyz)', proc: gateway, probe: () => httpOk(`http://127.0.0.1:${env.GATEWAY_PORT}/readyz`) }];
}

/** Services, workers and gateway first, then Temporal, then PostgreSQL, each tier reported. */
async function stopEverything(supervisor: Supervisor): Promise<void> {
  const t = Date.now();
  const names = { service: 'services, workers and gateway', mail: 'MailDev', temporal: 'Temporal', chain: 'chain nodes', postgres: 'PostgreSQL' } as const;
  await supervisor.stopAll((tier, count, ms) => console.log(`${dim('[stack]')} stopped ${names[tier]} (${count}) ${dim(`(${seconds(ms)})`)}`));
  console.log(`${dim('[stack]')} all stopped ${dim(`(${seconds(Date.now() - t)})`)}`);
}

function printInfra(infra: Provisioned, env: StackEnv, paths: StackPaths): void {
  const rows: string[][] = [
    ['postgres', 'server', infra.postgresLabel],
    ...SERVICE_NAMES.map((n) => ['', `${n} DATABASE_URL`, redactUrl(infra.databaseUrls[n])]),
    ['temporal', 'TEMPORAL_ADDRESS', infra.temporalLabel],
  ];
  if (infra.temporalUi) rows.push(['', 'UI', infra.temporalUi]);
  rows.push(...mailRows(infra.mail));
  if (infra.chains) rows.push(...chainRows(infra.chains, paths));
  console.log(`\n${bold('PostgreSQL and Temporal are up.')} Ctrl-C stops them. Run a service with e.g.:`);
  console.log(
    dim(
      `  PORT=${env.BNPL_PORT} DATABASE_URL=${redactUrl(infra.databaseUrls.bnpl)} TEMPORAL_ADDRESS=${infra.temporalAddress}${infra.mail ? ` SMTP_URL=${redactUrl(infra.mail.smtpUrl)}` : ''} node_modules/.bin/node services/bnpl/dist/cli.js serve\n`,
    ),
  );
  console.log(renderTable(['', 'What', 'Where'], rows));
}

export function urlTable(
  env: StackEnv,
  specs: ServiceSpec[],
  withGateway: boolean,
  infra: Provisioned,
  credentials: Map<ServiceName, Record<string, unknown> | undefined>,
  paths: StackPaths,
): string {
  const host = displayHost(env.HOST);
  const rows: string[][] = [];
  if (withGateway) {
    rows.push(['gateway', 'GraphQL + GraphiQL (all three subgraphs)', `http://${host}:${env.GATEWAY_PORT}${GRAPHQL_PATH}`]);
    rows.push(['', 'metrics (Prometheus)', `http://${host}:${env.GATEWAY_PORT}${METRICS_PATH}`]);
  }
  for (const spec of specs) {
    const base = `http://${host}:${spec.port}`;
    rows.push([spec.name, 'REST base', `${base}${spec.restBase}`]);
    rows.push(['', 'GraphQL subgraph + GraphiQL', `${base}${GRAPHQL_PATH}`]);
    rows.push(['', 'API docs', `${base}${API_DOCS_PATH}`]);
    rows.push(['', 'metrics (Prometheus): serve, worker', `${base}${METRICS_PATH}, http://${host}:${spec.workerMetricsPort}${METRICS_PATH}`]);
    const lines = credentialLines(credentials.get(spec.name));
    if (lines.length === 0) rows.push(['', 'demo credentials', '(the seed printed none)']);
    lines.forEach((line, i) => rows.push(['', i === 0 ? 'demo credentials' : '', line]));
  }
  rows.push(...mailRows(infra.mail));
  if (infra.chains) rows.push(...chainRows(infra.chains, paths));
  rows.push(['temporal', 'Web UI', infra.temporalUi ?? '(external cluster: use its own UI)']);
  rows.push(['', 'frontend (gRPC)', `${infra.temporalLabel}, namespace ${env.TEMPORAL_NAMESPACE}`]);
  rows.push(['', 'task queues', specs.map((s) => s.taskQueue).join(', ')]);
  rows.push(['postgres', 'server', infra.postgresLabel]);
  rows.push(['', 'databases', specs.map((s) => s.database).join(', ')]);
  return renderTable(['Service', 'What', 'URL / value'], rows);
}
