// The bnpl operator program (entry: dist/admin/cli.js; `npm run --silent admin -- bnpl <command>`): what a command
// runs on (the bnpl database, and a Temporal client only if it queues a delivery). The process contract (stdout, exit
// codes) is the kit's runAdminProgram. DATABASE_URL defaults to the bnpl database of `npm start`.
import { createLogger, openWorkflowOutbox, type OpenedWorkflowOutbox } from '@tributary/kit';
import { processAdminIo, runAdminProgram, type AdminIo, type CommandResult } from '@tributary/kit/admin';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { USAGE, runAdminCommand } from './commands.js';

/** The bnpl database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_bnpl';
/** The Temporal server of `npm start`, where `redeliver` dispatches the re-send's workflow right after its commit. */
export const DEFAULT_ADMIN_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/** How the operator typed each field of MerchantAdminService's input. */
const FIELD_LABELS: Readonly<Record<string, string>> = { merchantId: '--merchant', userName: '--user-name', mdrBps: 'MDR (basis points)', cadence: 'cadence' };

/** Runs one command line; resolves to the exit code. */
export function main(argv: readonly string[], io: AdminIo = processAdminIo()): Promise<number> {
  return runAdminProgram(argv, io, { usage: USAGE, run, fieldLabels: FIELD_LABELS });
}

async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const logger = createLogger({ service: `${SERVICE_NAME}-admin`, level: 'warn', destination: process.stderr });
  let orm: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let temporal: OpenedWorkflowOutbox | undefined;
  try {
    orm = await openDatabase(env['DATABASE_URL']?.trim() || DEFAULT_ADMIN_DATABASE_URL, logger);
    const root = orm.em;
    // The outbox's Temporal client connects on first use, so only `redeliver` ever dials Temporal.
    const outbox = () => (temporal ??= openWorkflowOutbox({ em: root, config: temporalConfig(env), logger })).outbox;
    return await runAdminCommand(args, { em: root.fork(), outbox });
  } finally {
    // Waits for a dispatch in flight (a re-send's workflow start), then closes the connection.
    await temporal?.close();
    await orm?.close();
  }
}

function temporalConfig(env: NodeJS.ProcessEnv): { TEMPORAL_ADDRESS: string; TEMPORAL_NAMESPACE: string } {
  return { TEMPORAL_ADDRESS: env['TEMPORAL_ADDRESS']?.trim() || DEFAULT_ADMIN_TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: env['TEMPORAL_NAMESPACE']?.trim() || 'default' };
}
