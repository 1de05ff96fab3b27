// The crypto operator commands' process contract (entry: dist/admin/cli.js; `npm run --silent admin -- crypto <command>`).
// stdout carries the result only: with --json exactly one JSON document (also for errors: {"error":{...}}), otherwise
// human text. Exit codes: 0 done, 2 bad arguments (one line on stderr), 1 unknown id or any other failure.
// DATABASE_URL defaults to the database of `npm start`; SECRETS_ENCRYPTION_KEY as for the service (the root
// dispatcher passes the key of `npm start` from .stack/secrets/encryption.key when it is unset).
import { Client, Connection } from '@temporalio/client';
import { ConfigError, DomainError, NotFoundError, ValidationError, createLogger, createWorkflowOutbox, loadConfig, type WorkflowOutbox } from '@tributary/kit';
import { secretBoxFor, secretsEnv } from '../config.js';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { USAGE, UsageError, runAdminCommand } from './commands.js';

/** The crypto database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_crypto';

/** The Temporal frontend of `npm start` (pay and redeliver dispatch webhook delivery workflows there). */
export const DEFAULT_ADMIN_TEMPORAL_ADDRESS = '127.0.0.1:7233';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: AdminIo = { env: process.env, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((arg) => arg !== '--json');
  const fail = (code: number, kind: string, message: string): number => {
    io.stderr.write(`${code === 2 ? 'usage error' : 'error'}: ${message}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ error: { code: kind, message } })}\n`);
    return code;
  };
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help' || args[0] === '-h') {
    if (args.length === 0) return fail(2, 'usage', `missing command (run "help" for the list)`);
    io.stdout.write(json ? `${JSON.stringify({ usage: USAGE })}\n` : `${USAGE}\n`);
    return 0;
  }
  let orm: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let connection: Promise<Connection> | undefined;
  let outbox: WorkflowOutbox | undefined;
  try {
    const box = secretBoxFor(loadConfig(secretsEnv, io.env));
    const databaseUrl = io.env['DATABASE_URL']?.trim() || DEFAULT_ADMIN_DATABASE_URL;
    const logger = createLogger({ service: `${SERVICE_NAME}-admin`, level: 'warn', destination: process.stderr });
    orm = await openDatabase(databaseUrl, logger);
    const root = orm.em;
    const openOutbox = async (): Promise<WorkflowOutbox> => {
      if (outbox) return outbox;
      const address = io.env['TEMPORAL_ADDRESS']?.trim() || DEFAULT_ADMIN_TEMPORAL_ADDRESS;
      connection = Connection.connect({ address, connectTimeout: '5s' });
      const client = new Client({ connection: await connection, namespace: io.env['TEMPORAL_NAMESPACE']?.trim() || 'default' });
      outbox = createWorkflowOutbox({ em: root, client, logger });
      return outbox;
    };
    const result = await runAdminCommand(args, { em: orm.em.fork(), box, outbox: openOutbox });
    // The command's deliveries are dispatched after its commit in the background: let them finish before exiting.
    await outbox?.idle();
    io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return fail(2, 'usage', `${error.message} (run "help" for the list)`);
    if (error instanceof NotFoundError) return fail(1, 'not_found', error.message);
    if (error instanceof ValidationError || (error instanceof DomainError && error.kind === 'business_rule')) {
      return fail(2, 'invalid_argument', error.message);
    }
    if (error instanceof ConfigError) return fail(1, 'config', error.message);
    return fail(1, 'failed', error instanceof Error ? error.message : String(error));
  } finally {
    await connection?.then((c) => c.close()).catch(() => {});
    await orm?.close();
  }
}
