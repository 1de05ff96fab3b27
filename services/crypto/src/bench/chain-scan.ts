// What the chain-scan benchmarks share (issue 12 §7: watcher throughput): a fresh migrated database holding
// BENCH_CHAIN_SCAN_REQUESTS open payment requests (default 10,000) on the chain under test, each with its own receive
// address derived on regtest from the account's key; blocks built on the run's real node (many transactions each,
// some paying requests); then, side by side in ABBA rounds over the same blocks:
//   ours:     ChainWatcher.scanOnce from a cursor just before those blocks to the tip (the worker's construction:
//             PaymentService with the webhook sink on regtest), the state its previous round wrote reset first;
//   baseline: the node's own time to hand out those blocks through the same RPC client the watcher reads with
//             (Bitcoin Core getblockhash + getblock verbosity 2; eth_getBlockByNumber with transactions).
// One operation = one block; throughput = blocks per second; latency = time per block. Target (issue 12 §7, "the
// watcher adds at most 2× the node's time per block"): what the watcher adds to its own read of the block is at most
// 2× the node's time, so its whole time per block is at most 3× the node's (throughput ratio ≥ 1/3).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { loadConfig, migrateUp, secretBoxFor, secretsEnv, type Logger } from '@tributary/kit';
import { BENCH_CPU_PROF_DIR_ENV, benchLog, benchmarkResult, benchSettings, benchSize, measureSideBySide, type BenchmarkResult, type LoadRunner, type RawRun, type Target } from '@tributary/kit/bench';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { AccountAdminService, type CryptoPrincipal } from '../modules/accounts/index.js';
import { assetDefinition, type AssetCode } from '../modules/assets/index.js';
import { ChainWatcher, type BlockSource } from '../modules/chain-watch/index.js';
import { draftFromBody, PaymentRequestService } from '../modules/payment-requests/index.js';
import { PaymentService } from '../modules/payments/index.js';
import { deriveReceiveAddress, parseAccountXpub, testMnemonicAccountKeys, type ReceiveAsset } from '../modules/receive-addresses/index.js';
import { createPaymentWebhookSink } from '../modules/webhooks/index.js';
import { openDatabase } from '../service.js';

/** Issue 12 §7: the watcher adds at most 2× the node's time per block: node + added ≤ 3× node, ratio ≥ 1/3. */
export const CHAIN_SCAN_TARGET: Target = { minThroughputRatio: 1 / 3 };

const NETWORK = 'regtest';
/** What every request asks for and every paying output sends: exact, so a paid request becomes `paid`. */
export const REQUEST_AMOUNT = '0.01';
/** A public HTTPS endpoint on every request, so a payment that settles one queues its payment.paid delivery, as in production. */
const WEBHOOK_URL = 'https://shop.bench.example/hooks/crypto';
/** Requests per bulk INSERT statement (one JSON parameter each). */
const INSERT_CHUNK = 2_000;

export interface ChainScanSizes {
  /** Open requests on the chain (BENCH_CHAIN_SCAN_REQUESTS). */
  requests: number;
  /** Blocks built and scanned per round (BENCH_CHAIN_SCAN_BLOCKS). */
  blocks: number;
  /** Transactions per block (BENCH_CHAIN_SCAN_TRANSACTIONS; default per chain). */
  transactions: number;
  /** Transfers per block that pay a request (BENCH_CHAIN_SCAN_PAYMENTS). */
  payments: number;
}

function positiveInteger(variable: string, fallback: number): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${variable} must be a positive integer, not ${raw}`);
  return value;
}

/**
 * The sizes of this run: BENCH_CHAIN_SCAN_* over the defaults (10,000 requests, 20 blocks, 10 payments per block; a
 * smoke run: 100 requests, 2 blocks of 2 transactions, 2 payments each).
 */
export function chainScanSizes(defaultTransactions: number): ChainScanSizes {
  const sizes = {
    requests: positiveInteger('BENCH_CHAIN_SCAN_REQUESTS', benchSize(10_000, 100)),
    blocks: positiveInteger('BENCH_CHAIN_SCAN_BLOCKS', benchSize(20, 2)),
    transactions: positiveInteger('BENCH_CHAIN_SCAN_TRANSACTIONS', benchSize(defaultTransactions, 2)),
    payments: positiveInteger('BENCH_CHAIN_SCAN_PAYMENTS', benchSize(10, 2)),
  };
  if (sizes.blocks * sizes.payments > sizes.requests) throw new Error(`${sizes.blocks} blocks × ${sizes.payments} payments need that many requests; BENCH_CHAIN_SCAN_REQUESTS is ${sizes.requests}`);
  return sizes;
}

export function requireRpcUrl(variable: string): string {
  const url = process.env[variable];
  if (!url) throw new Error(`${variable} is not set: run through \`npm run bench\`, which starts the chain nodes for crypto's benchmarks`);
  return url;
}

export interface PreparedRequests {
  db: TestDatabase;
  orm: MikroORM;
  /** Receive addresses of the open requests, in index order (index i = the key's `0/i`). */
  addresses: string[];
}

/**
 * The benchmark's receive keys: the test mnemonic's BIP32 account 900, which no test's account uses (a test account n
 * gets account n'). `npm test`'s smoke run pays on the same regtest nodes as the chain tests, and with account 1's keys
 * (every fresh database's first account) its transfers landed on a test's request address.
 */
const BENCH_RECEIVE_KEYS = testMnemonicAccountKeys(900);

/**
 * A fresh database with crypto's migrations, one account with the test mnemonic's keys for BIP32 account 900
 * (BENCH_RECEIVE_KEYS), and `count` open requests in `asset` on regtest: the first through PaymentRequestService.create (the
 * domain path: allocation, validation), the rest by SQL copies of it with the next receive indexes' real addresses
 * (derived here as the allocator would) and the key's cursor moved past them.
 */
export async function prepareRequests(asset: AssetCode & ReceiveAsset, count: number): Promise<PreparedRequests> {
  const t0 = performance.now();
  const db = await createTestDatabase(`crypto_bench_scan_${asset}`);
  const orm = await openDatabase(db.url);
  try {
    await migrateUp(orm);
    const admin = new AccountAdminService(orm.em.fork(), secretBoxFor(loadConfig(secretsEnv)), NETWORK);
    const { account } = await admin.createAccount({ name: 'Bench Chain Shop', xpubs: BENCH_RECEIVE_KEYS });
    const { keyId } = await admin.createApiKey(account.id, 'bench');
    const apiKeyId = (await orm.em.fork().getConnection().execute<Array<{ id: number }>>('select "id" from "api_keys" where "key_id" = ?', [keyId]))[0]!.id;
    const principal: CryptoPrincipal = { accountId: account.id, apiKeyId };
    const service = new PaymentRequestService(orm.em.fork(), { network: NETWORK });
    const body = { asset_id: assetDefinition(asset).id, title: 'Bench order', amount: REQUEST_AMOUNT };
    const { paymentRequest: first } = await service.create(principal, draftFromBody(body));
    if (first.addressIndex !== 0) throw new Error(`the first request got receive index ${first.addressIndex}, not 0`);

    const key = parseAccountXpub(NETWORK, asset, BENCH_RECEIVE_KEYS[asset]);
    const addresses = [first.address];
    for (let index = 1; index < count; index += 1) addresses.push(deriveReceiveAddress(NETWORK, asset, key, index));
    if (deriveReceiveAddress(NETWORK, asset, key, 0) !== first.address) throw new Error('the derived address of index 0 is not the allocated one');
    await insertCopies(orm.em.fork(), first.id, addresses.slice(1), 1);
    const connection = orm.em.getConnection();
    await connection.execute('update "account_xpubs" set "next_index" = ? where "account_id" = ? and "asset" = ?', [count, account.id, asset]);
    // Open for the whole run (an invoice's default deadline could pass during it), each with a webhook endpoint.
    await connection.execute(`update "payment_requests" set "expires_at" = now() + interval '1 day', "webhook_url" = ?`, [WEBHOOK_URL]);
    await connection.execute('analyze "payment_requests"');
    benchLog(`${count.toLocaleString('en')} open ${asset} requests on ${NETWORK} in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
    return { db, orm, addresses };
  } catch (error) {
    await orm.close();
    await db.drop();
    throw error;
  }
}

/** Copies of request `templateId` at receive indexes from `firstIndex`, with their addresses and fresh slugs. */
async function insertCopies(em: EntityManager, templateId: number, addresses: readonly string[], firstIndex: number): Promise<void> {
  for (let start = 0; start < addresses.length; start += INSERT_CHUNK) {
    const rows = addresses.slice(start, start + INSERT_CHUNK).map((address, offset) => ({ slug: randomBytes(12).toString('hex'), address, idx: firstIndex + start + offset }));
    await em.getConnection().execute(
      `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "chain", "address", "network", "address_conflict", "address_index",
         "amount_requested", "amount_paid", "expires_at", "created_at", "updated_at")
       select u."slug", t."account_id", t."asset_id", t."type", t."status", t."title", t."chain", u."address", t."network", false, u."idx",
         t."amount_requested", t."amount_paid", t."expires_at", now(), now()
       from "payment_requests" t cross join json_to_recordset(?::json) as u("slug" text, "address" text, "idx" bigint)
       where t."id" = ?`,
      [JSON.stringify(rows), templateId],
    );
  }
}

/** Which requests each built block pays: `perBlock` consecutive addresses per block, none twice. */
export function paidAddressesOf(addresses: readonly string[], block: number, perBlock: number): string[] {
  return addresses.slice(block * perBlock, (block + 1) * perBlock);
}

export interface ScanRange {
  /** The block just before the built ones: where each round's cursor starts. */
  startHeight: number;
  startHash: string;
  /** The last built block (the node's tip). */
  endHeight: number;
}

const oneRunOf = (latenciesMs: number[], ms: number): RawRun => ({ ok: latenciesMs.length, seconds: ms / 1000, latenciesMs, statusCodes: {}, errors: 0, timeouts: 0 });

/**
 * ours: the watcher over the built blocks, from a cursor set by SQL at the block before them. Between rounds the
 * previous round's writes are undone (payments, settled requests, queued deliveries, kept blocks), so every round
 * records the same payments into the same state. Time per block from `onBlock`.
 */
export function watcherRunner(orm: MikroORM, source: BlockSource, range: ScanRange, expectFound: number, profile: CpuProfiler): LoadRunner {
  const chain = source.chain;
  // An output the watcher could not record is a broken benchmark, not a figure: told, and the count check below fails.
  const warn = ((...args: unknown[]) => benchLog(`watcher warning: ${JSON.stringify(args)}`)) as Logger['warn'];
  const reset = async (): Promise<void> => {
    const connection = orm.em.getConnection();
    await connection.execute('delete from "payments" where "chain" = ?', [chain]);
    await connection.execute(`update "payment_requests" set "status" = 'pending', "amount_paid" = 0, "paid_at" = null where "chain" = ? and "status" <> 'pending'`, [chain]);
    await connection.execute('delete from "webhook_delivery_attempts"');
    await connection.execute('delete from "webhook_deliveries"');
    await connection.execute('delete from "workflow_outbox"');
    await connection.execute('delete from "scanned_blocks" where "chain" = ?', [chain]);
    await connection.execute(
      `insert into "chain_cursors" ("chain", "network", "height", "block_hash", "tip_height", "last_error", "updated_at") values (?, ?, ?, ?, ?, null, now())
       on conflict ("chain") do update set "network" = excluded."network", "height" = excluded."height", "block_hash" = excluded."block_hash", "tip_height" = excluded."tip_height", "last_error" = null`,
      [chain, NETWORK, range.startHeight, range.startHash, range.startHeight],
    );
  };
  return {
    label: `ChainWatcher.scanOnce (${chain})`,
    unit: 'blocks/s',
    run: async () => {
      await reset();
      await profile.start();
      const latenciesMs: number[] = [];
      let found = 0;
      const t0 = performance.now();
      let last = t0;
      const onBlock = (): void => {
        const now = performance.now();
        latenciesMs.push(now - last);
        last = now;
      };
      for (let height = range.startHeight; height < range.endHeight; ) {
        const em = orm.em.fork();
        const payments = new PaymentService(em, { events: createPaymentWebhookSink({}), network: NETWORK });
        const scan = await new ChainWatcher(em, { source, network: NETWORK, payments, logger: { warn }, onBlock }).scanOnce();
        if (scan.toHeight <= height) throw new Error(`${chain}: a scan from ${height} did not move (tip ${scan.tipHeight})`);
        found += scan.found;
        height = scan.toHeight;
      }
      const ms = performance.now() - t0;
      await profile.stop();
      if (found !== expectFound) throw new Error(`${chain}: the watcher found ${found} payments in the built blocks, not ${expectFound}`);
      return oneRunOf(latenciesMs, ms);
    },
  };
}

/** baseline: the node handing out the same blocks through the same client, one block at a time. */
export function nodeRunner(label: string, range: ScanRange, readBlock: (height: number) => Promise<unknown>): LoadRunner {
  return {
    label,
    unit: 'blocks/s',
    run: async () => {
      const latenciesMs: number[] = [];
      const t0 = performance.now();
      for (let height = range.startHeight + 1; height <= range.endHeight; height += 1) {
        const start = performance.now();
        await readBlock(height);
        latenciesMs.push(performance.now() - start);
      }
      return oneRunOf(latenciesMs, performance.now() - t0);
    },
  };
}

/**
 * With BENCH_CPU_PROF_DIR (npm run bench -- --cpu-prof) a CPU profile of each of the watcher's runs, taken in this
 * process (the watcher runs here, not in a server), written where the runner summarises it.
 */
export class CpuProfiler {
  private session: Session | undefined;
  private runs = 0;
  constructor(private readonly name: string) {}

  async start(): Promise<void> {
    if (!process.env[BENCH_CPU_PROF_DIR_ENV]) return;
    this.session ??= new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.start');
  }

  async stop(): Promise<void> {
    const dir = process.env[BENCH_CPU_PROF_DIR_ENV];
    if (!dir || !this.session) return;
    const { profile } = await this.session.post('Profiler.stop');
    this.session.disconnect();
    this.runs += 1;
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${this.name}-run${this.runs}.cpuprofile`), JSON.stringify(profile));
  }
}

export interface ChainScanReport {
  name: string;
  chainLabel: string;
  sizes: ChainScanSizes;
  /** What a block holds (e.g. "20 transactions × 50 outputs"). */
  blockShape: string;
  ours: LoadRunner;
  baseline: LoadRunner;
  notes: string[];
}

export async function measureChainScan(report: ChainScanReport): Promise<BenchmarkResult> {
  // One pass over the blocks per run: connections and duration do not apply; warmup > 0 = one pass each.
  const settings = { ...benchSettings(), connections: 1 };
  const measured = await measureSideBySide({ ours: report.ours, baseline: report.baseline }, settings, benchLog);
  const { sizes } = report;
  return benchmarkResult({
    name: report.name,
    description: `${report.chainLabel}: ChainWatcher.scanOnce over ${sizes.blocks} blocks (${report.blockShape}, ${sizes.payments} paying requests) with ${sizes.requests.toLocaleString('en')} open requests vs the node's own getblock of the same blocks; one operation = one block`,
    settings,
    measured,
    target: CHAIN_SCAN_TARGET,
    notes: [
      'One operation = one block: throughput is blocks per second over one pass of the built blocks per round, latency the time per block (ms); the throughput ratio is the node\'s time per block over the watcher\'s (≥ 1/3 = the watcher adds at most 2× the node\'s time to its own read of the block; ≥ 0.5 would be at most 2× in all).',
      `ours: a new ChainWatcher per scanOnce (as the chain-watch activity makes one) from a cursor set by SQL at the block before the built ones, to the tip; PaymentService on ${NETWORK} with the webhook sink (each settled request queues its payment.paid delivery; no outbox dispatch). The previous round's payments, settled requests, deliveries and kept blocks are undone before each round, outside the time.`,
      ...report.notes,
    ],
  });
}
