// The crypto operator commands' process contract (entry: dist/admin/cli.js; `npm run --silent admin -- crypto <command>`).
// stdout carries the result only: with --json exactly one JSON document (also for errors: {"error":{...}}), otherwise
// human text. Exit codes: 0 done, 2 bad arguments (one line on stderr), 1 unknown id or any other failure.
// DATABASE_URL defaults to the database of `npm start`; SECRETS_ENCRYPTION_KEY as for the service (the root
// dispatcher passes the key of `npm start` from .stack/secrets/encryption.key when it is unset).
import { Client, Connection } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError, DomainError, NotFoundError, ValidationError, createLogger, createWorkflowOutbox, loadConfig, secretBoxFor, secretsEnv, type Logger, type WorkflowOutbox } from '@tributary/kit';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { USAGE, UsageError, runAdminCommand, type AdminDeps } from './commands.js';

/** The crypto database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_crypto';

/** The Temporal frontend of `npm start` (pay and redeliver dispatch webhook delivery workflows there). */
export const DEFAULT_ADMIN_TEMPORAL_ADDRESS = '127.0.0.1:7233';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** How a command ends on stdout/stderr and in the exit code. */
interface Exit {
  code: 0 | 1 | 2;
  kind?: 'usage' | 'not_found' | 'invalid_argument' | 'config' | 'failed';
  message?: string;
}

/** Runs one command line; resolves to the exit code. */
export async function main(argv: readonly string[], io: AdminIo = { env: process.env, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((arg) => arg !== '--json');
  if (args.length === 0) return fail(io, json, { code: 2, kind: 'usage', message: 'missing command (run "help" for the list)' });
  if (args[0] === 'help' || args[0] === '--help' || args[0] === '-h') {
    io.stdout.write(json ? `${JSON.stringify({ usage: USAGE })}\n` : `${USAGE}\n`);
    return 0;
  }
  const resources = new AdminResources(io.env);
  try {
    const result = await runAdminCommand(args, await resources.deps());
    // The command's deliveries are dispatched after its commit in the background: let them finish before exiting.
    await resources.idle();
    io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    return fail(io, json, exitFor(error));
  } finally {
    await resources.close();
  }
}

function fail(io: AdminIo, json: boolean, exit: Exit): number {
  io.stderr.write(`${exit.code === 2 ? 'usage error' : 'error'}: ${exit.message}\n`);
  if (json) io.stdout.write(`${JSON.stringify({ error: { code: exit.kind, message: exit.message } })}\n`);
  return exit.code;
}

/** Exit 2 for what the operator typed (bad arguments, a value a domain rule refuses), 1 for everything else. */
function exitFor(error: unknown): Exit {
  if (error instanceof UsageError) return { code: 2, kind: 'usage', message: `${error.message} (run "help" for the list)` };
  if (error instanceof NotFoundError) return { code: 1, kind: 'not_found', message: error.message };
  if (error instanceof ValidationError || (error instanceof DomainError && error.kind === 'business_rule')) {
    return { code: 2, kind: 'invalid_argument', message: error.message };
  }
  if (error instanceof ConfigError) return { code: 1, kind: 'config', message: error.message };
  return { code: 1, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

/** The database and, only for the commands that queue deliveries, a Temporal client: opened on demand, closed once. */
class AdminResources {
  private orm: Awaited<ReturnType<typeof openDatabase>> | undefined;
  private connection: Promise<Connection> | undefined;
  private outbox: WorkflowOutbox | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async deps(): Promise<AdminDeps> {
    const box = secretBoxFor(loadConfig(secretsEnv, this.env));
    const logger = createLogger({ service: `${SERVICE_NAME}-admin`, level: 'warn', destination: process.stderr });
    this.orm = await openDatabase(this.env['DATABASE_URL']?.trim() || DEFAULT_ADMIN_DATABASE_URL, logger);
    const root = this.orm.em;
    return { em: root.fork(), box, outbox: () => this.openOutbox(root, logger) };
  }

  idle(): Promise<void> {
    return this.outbox?.idle() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    await this.connection?.then((c) => c.close()).catch(() => {});
    await this.orm?.close();
  }

  private async openOutbox(em: EntityManager, logger: Logger): Promise<WorkflowOutbox> {
    if (this.outbox) return this.outbox;
    this.connection = Connection.connect({ address: this.env['TEMPORAL_ADDRESS']?.trim() || DEFAULT_ADMIN_TEMPORAL_ADDRESS, connectTimeout: '5s' });
    const client = new Client({ connection: await this.connection, namespace: this.env['TEMPORAL_NAMESPACE']?.trim() || 'default' });
    this.outbox = createWorkflowOutbox({ em, client, logger });
    return this.outbox;
  }
}
