// Benchmark `chain-scan-ltc` (npm run bench -- chain-scan-ltc; issue 12 §7): the UTXO watcher's throughput on the
// run's real Litecoin Core regtest node (CRYPTO_LTC_RPC_URL, started by `npm run bench`) with 10,000 open LTC
// requests, beside the node's own getblockhash + getblock <hash> 2 of the same blocks through the same client
// (UtxoRpcClient). Blocks: BENCH_CHAIN_SCAN_TRANSACTIONS sendmany transactions (default 20) of 50 outputs each, a few
// paying requests, the rest the wallet's own addresses. Shared parts and target: chain-scan.ts.
import { benchLog, runBenchmark } from '@tributary/kit/bench';
import { UtxoRpcClient, UtxoRpcError } from '../modules/chain-nodes/index.js';
import { UtxoBlockSource } from '../modules/chain-watch/index.js';
import { chainScanSizes, CpuProfiler, measureChainScan, nodeRunner, paidAddressesOf, prepareRequests, REQUEST_AMOUNT, requireRpcUrl, watcherRunner, type ChainScanSizes, type ScanRange } from './chain-scan.js';

const NAME = 'chain-scan-ltc';
const WALLET = 'tributary-bench-scan';
/** Outputs of each transaction (sendmany): payments to requests first, the wallet's own addresses for the rest. */
const OUTPUTS_PER_TRANSACTION = 50;
/** Each funding output: enough for one transaction's outputs and fee, so every transaction spends a confirmed coin. */
const FUNDING_OUTPUT_LTC = 1;
/** What an output to the wallet's own addresses sends. */
const FILLER_LTC = 0.001;
/** Regtest coinbase maturity (100) plus enough mature 50 LTC coinbases to fund the fan-out. */
const MATURING_BLOCKS = 130;

async function wallet(rpc: UtxoRpcClient): Promise<void> {
  if ((await rpc.call<string[]>('listwallets')).includes(WALLET)) return;
  await rpc.call('createwallet', [WALLET]).catch(async (error: unknown) => {
    if (!(error instanceof UtxoRpcError)) throw error;
    await rpc.call('loadwallet', [WALLET]);
  });
}

/**
 * Mature coins, then one confirmed funding output per transaction to build (Bitcoin Core's coin selection spends
 * confirmed coins before unconfirmed change, so no transaction waits on another's), then the blocks.
 */
async function buildBlocks(rpc: UtxoRpcClient, addresses: readonly string[], sizes: ChainScanSizes): Promise<ScanRange> {
  const t0 = performance.now();
  await wallet(rpc);
  const call = <T>(method: string, params: unknown[] = []) => rpc.call<T>(method, params, { wallet: WALLET });
  const miner = await call<string>('getnewaddress', ['', 'bech32']);
  await rpc.call('generatetoaddress', [MATURING_BLOCKS, miner]);
  const own: string[] = [];
  for (let i = 0; i < OUTPUTS_PER_TRANSACTION; i += 1) own.push(await call<string>('getnewaddress', ['', 'bech32']));
  const transactions = sizes.blocks * sizes.transactions;
  for (let sent = 0; sent < transactions; sent += 1_000) {
    const fanOut: Record<string, number> = {};
    for (let i = sent; i < Math.min(transactions, sent + 1_000); i += 1) fanOut[await call<string>('getnewaddress', ['', 'bech32'])] = FUNDING_OUTPUT_LTC;
    await call('sendmany', ['', fanOut]);
  }
  await rpc.call('generatetoaddress', [1, miner]);
  const startHeight = await rpc.getBlockCount();
  for (let block = 0; block < sizes.blocks; block += 1) {
    const paying = paidAddressesOf(addresses, block, sizes.payments);
    for (let tx = 0; tx < sizes.transactions; tx += 1) {
      const outputs: Record<string, number | string> = {};
      // The block's payments spread over its first transactions, at most half of a transaction's outputs each.
      const share = paying.splice(0, Math.max(0, Math.min(paying.length, OUTPUTS_PER_TRANSACTION / 2, Math.ceil(paying.length / (sizes.transactions - tx)))));
      for (const address of share) outputs[address] = REQUEST_AMOUNT;
      for (const address of own) {
        if (Object.keys(outputs).length >= OUTPUTS_PER_TRANSACTION) break;
        outputs[address] = FILLER_LTC;
      }
      await call('sendmany', ['', outputs]);
    }
    if (paying.length > 0) throw new Error(`block ${block}: ${paying.length} payments did not fit its transactions`);
    await rpc.call('generatetoaddress', [1, miner]);
  }
  const endHeight = await rpc.getBlockCount();
  const built = await rpc.getBlock(await rpc.getBlockHash(endHeight));
  if (built.tx.length !== sizes.transactions + 1) throw new Error(`the last block holds ${built.tx.length - 1} transactions, not ${sizes.transactions}`);
  benchLog(`built ${endHeight - startHeight} blocks of ${sizes.transactions} transactions × ${OUTPUTS_PER_TRANSACTION} outputs (+ change) in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
  return { startHeight, startHash: await rpc.getBlockHash(startHeight), endHeight };
}

runBenchmark(async () => {
  const sizes = chainScanSizes(20);
  const rpc = new UtxoRpcClient({ url: requireRpcUrl('CRYPTO_LTC_RPC_URL'), timeoutMs: 60_000 });
  const prepared = await prepareRequests('LTC', sizes.requests);
  try {
    const range = await buildBlocks(rpc, prepared.addresses, sizes);
    const source = new UtxoBlockSource('litecoin', rpc);
    return await measureChainScan({
      name: NAME,
      chainLabel: 'Litecoin Core regtest',
      sizes,
      blockShape: `${sizes.transactions} transactions × ${OUTPUTS_PER_TRANSACTION} outputs + change`,
      ours: watcherRunner(prepared.orm, source, range, sizes.blocks * sizes.payments, new CpuProfiler(NAME)),
      baseline: nodeRunner('litecoind getblockhash + getblock 2', range, async (height) => rpc.getBlock(await rpc.getBlockHash(height))),
      notes: [
        'baseline: UtxoRpcClient.getBlockHash + getBlock (verbosity 2) per block: the same client, HTTP connection handling and JSON parsing (amounts kept as the node\'s text) the watcher\'s UtxoBlockSource uses.',
        `Each transaction is a wallet sendmany of ${OUTPUTS_PER_TRANSACTION} outputs (the block's payments of ${REQUEST_AMOUNT} LTC to requests' addresses first, then ${OUTPUTS_PER_TRANSACTION} of the wallet's own addresses) plus change; the node runs on the same machine.`,
      ],
    });
  } finally {
    await prepared.orm.close();
    await prepared.db.drop();
  }
});
