// The photos operator program (entry: dist/admin/cli.js; `npm run --silent admin -- photos <command>`): what a command
// runs on (the photos database only). The process contract (stdout, exit codes) is the kit's runAdminProgram.
// DATABASE_URL defaults to the photos database of `npm start`.
import { createLogger } from '@tributary/kit';
import { processAdminIo, runAdminProgram, type AdminIo, type CommandResult } from '@tributary/kit/admin';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { USAGE, runAdminCommand } from './commands.js';

/** The photos database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_photos';

/** How the operator typed each field of the domain's input. */
const FIELD_LABELS: Readonly<Record<string, string>> = { abilities: '--abilities', expires_in_days: '--expires-in', name: '--name' };

/** Runs one command line; resolves to the exit code. */
export function main(argv: readonly string[], io: AdminIo = processAdminIo()): Promise<number> {
  return runAdminProgram(argv, io, { usage: USAGE, run, fieldLabels: FIELD_LABELS });
}

async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const logger = createLogger({ service: `${SERVICE_NAME}-admin`, level: 'warn', destination: process.stderr });
  const orm = await openDatabase(env['DATABASE_URL']?.trim() || DEFAULT_ADMIN_DATABASE_URL, logger);
  try {
    return await runAdminCommand(args, { em: orm.em.fork() });
  } finally {
    await orm.close();
  }
}
