// The crypto operator program (entry: dist/admin/cli.js; `npm run --silent admin -- crypto <command>`): what a command
// runs on. The process contract (stdout, exit codes) is the kit's runAdminProgram. DATABASE_URL defaults to the
// database of `npm start`; SECRETS_ENCRYPTION_KEY as for the service (the root dispatcher passes the key of
// `npm start` from .stack/secrets/encryption.key when it is unset).
import { Client, Connection } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createLogger, createWorkflowOutbox, loadConfig, secretBoxFor, secretsEnv, type Logger, type WorkflowOutbox } from '@tributary/kit';
import { processAdminIo, runAdminProgram, type AdminIo, type CommandResult } from '@tributary/kit/admin';
import { z } from 'zod';
import { chainNetworkOf } from '../chain-network.js';
import { gapLimitFields } from '../modules/receive-addresses/index.js';
import { openDatabase } from '../service.js';
import { SERVICE_NAME } from '../service-name.js';
import { ASSET_TABLE } from '../modules/assets/index.js';
import { rpcUrlVariable } from '../modules/chain-watch/index.js';
import { USAGE, runAdminCommand, type AdminDeps, type PayChainNodes } from './commands.js';

/** The crypto database of `npm start` (embedded PostgreSQL on 5433). */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/tributary_crypto';

/** The Temporal frontend of `npm start` (pay and redeliver dispatch webhook delivery workflows there). */
export const DEFAULT_ADMIN_TEMPORAL_ADDRESS = '127.0.0.1:7233';

/** The node wallet `pay` sends from on regtest (`npm start -- --chains` passes its demo wallet). */
export const PAY_WALLET_VARIABLE = 'CRYPTO_PAY_WALLET';

/** The chain nodes `pay` may send through: every CRYPTO_<ASSET>_RPC_URL that is set, and CRYPTO_PAY_WALLET. */
export function payChainNodesOf(env: NodeJS.ProcessEnv): PayChainNodes {
  const rpcUrls: PayChainNodes['rpcUrls'] = {};
  for (const { chain, code } of ASSET_TABLE) {
    const value = env[rpcUrlVariable(code)]?.trim();
    if (value) rpcUrls[chain] = value;
  }
  const wallet = env[PAY_WALLET_VARIABLE]?.trim();
  return { rpcUrls, ...(wallet ? { wallet } : {}) };
}

/** Runs one command line; resolves to the exit code. */
export function main(argv: readonly string[], io: AdminIo = processAdminIo()): Promise<number> {
  return runAdminProgram(argv, io, { usage: USAGE, run });
}

async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const resources = new AdminResources(env);
  try {
    const result = await runAdminCommand(args, await resources.deps());
    // The command's deliveries are dispatched after its commit in the background: let them finish before exiting.
    await resources.idle();
    return result;
  } finally {
    await resources.close();
  }
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
    const { CRYPTO_GAP_LIMIT: gapLimit } = loadConfig(z.object(gapLimitFields), this.env);
    return { em: root.fork(), box, network: chainNetworkOf(this.env), gapLimit, chainNodes: payChainNodesOf(this.env), outbox: () => this.openOutbox(root, logger) };
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
