// What crypto's merchant-API benchmarks share (payment-request-create, payment-requests-list): a fresh migrated
// database with one account (the public test mnemonic's receive keys, as `account create` without --xpub) and an API
// key, and `crypto serve` started as production runs it. The chain scans (chain-scan.ts) have their own.
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, migrateUp, secretBoxFor, secretsEnv } from '@tributary/kit';
import { startBenchServer, type BenchServer } from '@tributary/kit/bench';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { MERCHANT_API_PREFIX } from '../api-paths.js';
import { AccountAdminService } from '../modules/accounts/index.js';
import { ASSET_CODES, assetDefinition, type AssetCode } from '../modules/assets/index.js';
import { rpcUrlVariable } from '../modules/chain-watch/index.js';
import type { ReceiveAsset } from '../modules/receive-addresses/index.js';
import { openDatabase } from '../service.js';

/** The network of every request (the service's default: worthless test coins). */
export const BENCH_NETWORK = 'testnet';
/** The asset the requests ask for: a UTXO chain, so each create derives a receive address from the account's key. */
export const BENCH_ASSET: AssetCode & ReceiveAsset = 'LTC';
export const PAYMENT_REQUESTS_PATH = `${MERCHANT_API_PREFIX}/payment-requests`;

export interface BenchAccount {
  db: TestDatabase;
  accountId: number;
  /** `<KEY_ID>.<SECRET>`, the bearer credential. */
  apiKey: string;
  /** The asset's id in this database (the create body's asset_id). */
  assetId: number;
}

/** A fresh database with crypto's migrations, one account with the test keys and one API key (the admin's own code). */
export async function prepareAccount(prefix: string, seed?: (orm: MikroORM, account: BenchAccount) => Promise<void>): Promise<BenchAccount> {
  const db = await createTestDatabase(prefix);
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(db.url);
    await migrateUp(orm);
    const admin = new AccountAdminService(orm.em.fork(), secretBoxFor(loadConfig(secretsEnv)), BENCH_NETWORK);
    const { account } = await admin.createAccount({ name: 'Bench Crypto Shop' });
    const { key } = await admin.createApiKey(account.id, 'bench');
    const prepared = { db, accountId: account.id, apiKey: key, assetId: assetDefinition(BENCH_ASSET).id };
    await seed?.(orm, prepared);
    return prepared;
  } catch (error) {
    await db.drop();
    throw error;
  } finally {
    await orm?.close();
  }
}

const cliScript = fileURLToPath(new URL('../cli.js', import.meta.url));

/**
 * `crypto serve` with NODE_ENV=production and info logs (to a file), the merchant rate limit above the load (the one
 * key would otherwise be refused after 120 requests a minute, by design), and no chain nodes: the run's nodes are for
 * the chain scans, and serve would report watchers no worker runs as unhealthy in /readyz.
 */
export function startCrypto(databaseUrl: string): Promise<BenchServer> {
  const noNodes = Object.fromEntries(ASSET_CODES.map((code) => [rpcUrlVariable(code), undefined]));
  return startBenchServer({
    name: 'crypto',
    script: cliScript,
    args: ['serve'],
    readyPath: '/readyz',
    env: { ...noNodes, DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'info', CRYPTO_NETWORK: BENCH_NETWORK, CRYPTO_MERCHANT_RATE_LIMIT: '1000000' },
  });
}
