// The bnpl operator commands' process contract (entry: dist/admin/cli.js; `npm run --silent admin -- bnpl <command>`).
// stdout carries the result only: with --json exactly one JSON document (also for errors: {"error":{...}}), otherwise
// human text. Exit codes: 0 done, 2 bad arguments or a value a rule refuses (one line on stderr), 1 unknown id or any
// other failure. DATABASE_URL defaults to the bnpl database of `npm start`.
import { ConflictError, DomainError, NotFoundError, ValidationError, createLogger, openWorkflowOutbox, type FieldErrors, type OpenedWorkflowOutbox } from '@tributary/kit';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { USAGE, UsageError, runAdminCommand } from './commands.js';

/** The bnpl database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_bnpl';
/** The Temporal server of `npm start`, where `redeliver` dispatches the re-send's workflow right after its commit. */
export const DEFAULT_ADMIN_TEMPORAL_ADDRESS = '127.0.0.1:7233';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** How a command ends on stdout/stderr and in the exit code. */
interface Exit {
  code: 0 | 1 | 2;
  kind?: 'usage' | 'not_found' | 'invalid_argument' | 'conflict' | 'failed';
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
  const logger = createLogger({ service: `${SERVICE_NAME}-admin`, level: 'warn', destination: process.stderr });
  let orm: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let temporal: OpenedWorkflowOutbox | undefined;
  try {
    orm = await openDatabase(io.env['DATABASE_URL']?.trim() || DEFAULT_ADMIN_DATABASE_URL, logger);
    const root = orm.em;
    // The outbox's Temporal client connects on first use, so only `redeliver` ever dials Temporal.
    const outbox = () => (temporal ??= openWorkflowOutbox({ em: root, config: temporalConfig(io.env), logger })).outbox;
    const result = await runAdminCommand(args, { em: root.fork(), outbox });
    io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    return fail(io, json, exitFor(error));
  } finally {
    // Waits for a dispatch in flight (a re-send's workflow start), then closes the connection.
    await temporal?.close();
    await orm?.close();
  }
}

function temporalConfig(env: NodeJS.ProcessEnv): { TEMPORAL_ADDRESS: string; TEMPORAL_NAMESPACE: string } {
  return { TEMPORAL_ADDRESS: env['TEMPORAL_ADDRESS']?.trim() || DEFAULT_ADMIN_TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: env['TEMPORAL_NAMESPACE']?.trim() || 'default' };
}

function fail(io: AdminIo, json: boolean, exit: Exit): number {
  io.stderr.write(`${exit.code === 2 ? 'usage error' : 'error'}: ${exit.message}\n`);
  if (json) io.stdout.write(`${JSON.stringify({ error: { code: exit.kind, message: exit.message } })}\n`);
  return exit.code;
}

/** How the operator typed each field of MerchantAdminService's input. */
const FIELD_LABELS: Readonly<Record<string, string>> = { merchantId: '--merchant', userName: '--user-name', mdrBps: 'MDR (basis points)', cadence: 'cadence' };

/** `--email: Must be an e-mail address.; --password: …`: the domain's fields named as the operator typed them. */
function fieldsMessage(fields: FieldErrors): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${FIELD_LABELS[field] ?? `--${field}`}: ${messages.join(' ')}`)
    .join('; ');
}

/** Exit 2 for what the operator typed (bad arguments, a value a domain rule refuses, an e-mail in use), 1 otherwise. */
function exitFor(error: unknown): Exit {
  if (error instanceof UsageError) return { code: 2, kind: 'usage', message: `${error.message} (run "help" for the list)` };
  if (error instanceof NotFoundError) return { code: 1, kind: 'not_found', message: error.message };
  if (error instanceof ValidationError) return { code: 2, kind: 'invalid_argument', message: fieldsMessage(error.fields) };
  if (error instanceof DomainError && error.kind === 'business_rule') return { code: 2, kind: 'invalid_argument', message: error.message };
  if (error instanceof ConflictError) return { code: 2, kind: 'conflict', message: error.message };
  return { code: 1, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
