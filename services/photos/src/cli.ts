#!/usr/bin/env node
// Entry points the stack runner (and operators) use: migrate | seed | serve | worker.
import { createLogger, loadConfig, migrateUp, onShutdownSignal, serviceEnv } from '@tributary/kit';
import { seedDemoData } from './seed.js';
import { SERVICE_NAME, photosEnv, openDatabase, startService } from './service.js';
import { startWorker } from './worker.js';

const databaseEnv = serviceEnv.pick({ DATABASE_URL: true, LOG_LEVEL: true });
const workerEnv = serviceEnv.pick({
  DATABASE_URL: true,
  LOG_LEVEL: true,
  TEMPORAL_ADDRESS: true,
  TEMPORAL_NAMESPACE: true,
  WEBHOOK_ALLOW_PRIVATE_HOSTS: true,
});
const USAGE = `usage: ${SERVICE_NAME} <migrate|seed|serve|worker>`;

// One-shot commands log to stderr: `seed` owns stdout for its one JSON line.
const stderrLogger = (level: string) => createLogger({ service: SERVICE_NAME, level, destination: process.stderr });

async function main(command: string | undefined): Promise<void> {
  switch (command) {
    case 'migrate': {
      const config = loadConfig(databaseEnv);
      const logger = stderrLogger(config.LOG_LEVEL);
      const orm = await openDatabase(config.DATABASE_URL, logger);
      try {
        const applied = await migrateUp(orm);
        logger.info({ applied }, applied.length ? 'migrations applied' : 'database schema up to date');
      } finally {
        await orm.close();
      }
      return;
    }
    case 'seed': {
      const config = loadConfig(databaseEnv);
      const orm = await openDatabase(config.DATABASE_URL, stderrLogger(config.LOG_LEVEL));
      try {
        const credentials = await seedDemoData(orm.em.fork());
        process.stdout.write(`${JSON.stringify({ credentials })}\n`);
      } finally {
        await orm.close();
      }
      return;
    }
    case 'serve': {
      const config = loadConfig(photosEnv);
      const server = await startService(config);
      onShutdownSignal(() => server.close());
      return;
    }
    case 'worker': {
      const config = loadConfig(workerEnv);
      const logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL });
      const orm = await openDatabase(config.DATABASE_URL, logger);
      const running = await startWorker({ orm, logger, config });
      onShutdownSignal(async () => {
        await running.shutdown();
        await orm.close();
      });
      await running.done;
      return;
    }
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
