// The command line every service ships as dist/cli.js (the stack runs exactly these): migrate | seed | serve | worker.
import { DEVELOPMENT_NODE_ENVS, describeNodeEnv, isDevelopmentNodeEnv, loadConfig, secretsEnv, serviceEnv, type ServiceEnv } from '../config/index.js';
import { migrateUp } from '../database/index.js';
import { onShutdownSignal } from '../http/index.js';
import { createLogger } from '../logging/index.js';
import { startTracingFromEnv } from '../observability/index.js';
import type { ServiceDefinition } from './definition.js';
import { openServiceDatabase, startService } from './service.js';
import { startServiceWorker } from './worker.js';
import { startWorkerListener } from './worker-listener.js';
import { installTemporalRuntime } from './temporal-runtime.js';

const databaseEnv = serviceEnv.pick({ DATABASE_URL: true, LOG_LEVEL: true });
const workerEnv = serviceEnv.pick({
  DATABASE_URL: true,
  LOG_LEVEL: true,
  HOST: true,
  METRICS_PORT: true,
  METRICS_TOKEN: true,
  SHUTDOWN_GRACE_MS: true,
  TEMPORAL_ADDRESS: true,
  TEMPORAL_NAMESPACE: true,
  WEBHOOK_ALLOW_PRIVATE_HOSTS: true,
});

/** Why `seed` refuses to run: its demo credentials are published, so they must never reach a deployment's database. */
export function seedRefusal(service: string, nodeEnv: string | undefined): string {
  return `${service} seed writes the published demo credentials and runs only when NODE_ENV is ${DEVELOPMENT_NODE_ENVS.join(' or ')} (${describeNodeEnv(nodeEnv)}); nothing was written.`;
}

export interface ServiceCommandIo {
  env?: NodeJS.ProcessEnv;
  /** Where `seed` writes its one JSON line. Default process.stdout. */
  stdout?: NodeJS.WritableStream;
}

/**
 * Runs one command. `seed` refuses outside development and tests (seedRefusal). `migrate` and `seed` log to stderr
 * (`seed` owns stdout for its one JSON line); `serve` and `worker` run until SIGTERM/SIGINT. An unknown command prints
 * the usage and sets exit code 2.
 */
export async function runServiceCommand<C extends ServiceEnv>(definition: ServiceDefinition<C, object>, command: string | undefined, io: ServiceCommandIo = {}): Promise<void> {
  const env = io.env ?? process.env;
  const service = definition.name;
  const stderrLogger = (level: string) => createLogger({ service, level, destination: process.stderr });
  switch (command) {
    case 'migrate': {
      const config = loadConfig(databaseEnv, env);
      const logger = stderrLogger(config.LOG_LEVEL);
      const orm = await openServiceDatabase(definition, config.DATABASE_URL, logger, { deadlines: false });
      try {
        const applied = await migrateUp(orm);
        logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
      } finally {
        await orm.close();
      }
      return;
    }
    case 'seed': {
      // Before anything is opened: a refused seed writes nothing.
      if (!isDevelopmentNodeEnv(env.NODE_ENV)) throw new Error(seedRefusal(service, env.NODE_ENV));
      const config = loadConfig(databaseEnv, env);
      const orm = await openServiceDatabase(definition, config.DATABASE_URL, stderrLogger(config.LOG_LEVEL));
      try {
        const credentials = await definition.seed(orm.em.fork());
        (io.stdout ?? process.stdout).write(`${JSON.stringify({ credentials })}\n`);
      } finally {
        await orm.close();
      }
      return;
    }
    case 'serve': {
      const config = loadConfig(definition.env, env) as C;
      const tracing = startTracingFromEnv(service, env);
      const server = await startService(definition, config);
      onShutdownSignal(async () => {
        await server.close();
        await tracing?.shutdown();
      });
      return;
    }
    case 'worker': {
      // Every worker opens sealed webhook signing secrets: a missing key stops it now, naming the variable, rather
      // than at its first delivery.
      loadConfig(secretsEnv, env);
      const config = loadConfig(workerEnv, env);
      const logger = createLogger({ service, level: config.LOG_LEVEL });
      installTemporalRuntime(logger);
      const tracing = startTracingFromEnv(service, env);
      const orm = await openServiceDatabase(definition, config.DATABASE_URL, logger);
      const running = await startServiceWorker(definition, { orm, logger, config });
      const { METRICS_PORT } = config;
      const listener = METRICS_PORT === undefined ? undefined : await startWorkerListener({ service, orm, logger, config: { ...config, METRICS_PORT } });
      onShutdownSignal(async () => {
        await running.shutdown();
        await listener?.close();
        await orm.close();
        await tracing?.shutdown();
      });
      await running.done;
      return;
    }
    default:
      console.error(`usage: ${service} <migrate|seed|serve|worker>`);
      process.exitCode = 2;
  }
}

/** The body of a service's cli.ts: runs process.argv[2]; a failure prints its message and exits 1. */
export function runServiceCli<C extends ServiceEnv>(definition: ServiceDefinition<C, object>, command: string | undefined = process.argv[2]): void {
  runServiceCommand(definition, command).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
