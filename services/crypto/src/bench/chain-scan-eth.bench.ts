// Benchmark `chain-scan-eth` (npm run bench -- chain-scan-eth; issue 12 §7): the EVM watcher's throughput on the run's
// real anvil node (CRYPTO_ETH_RPC_URL, chain id 31337, --no-mining; started by `npm run bench`) with 10,000 open ETH
// requests, beside the node's own eth_getBlockByNumber (full transactions) of the same blocks through the same client
// (EvmRpcClient). Blocks: BENCH_CHAIN_SCAN_TRANSACTIONS value transfers (default 200) from anvil's dev accounts, a few
// paying requests (their receipts read by the watcher), the rest to fresh addresses. Shared parts and target: chain-scan.ts.
import { randomBytes } from 'node:crypto';
import { benchLog, runBenchmark } from '@tributary/kit/bench';
import { parseEther } from 'viem';
import { EvmRpcClient } from '../modules/chain-nodes/index.js';
import { EvmBlockSource } from '../modules/chain-watch/index.js';
import { EVM_CHAIN_IDS } from '../modules/hosted-page/index.js';
import { chainScanSizes, CpuProfiler, measureChainScan, nodeRunner, paidAddressesOf, prepareRequests, REQUEST_AMOUNT, requireRpcUrl, watcherRunner, type ChainScanSizes, type ScanRange } from './chain-scan.js';

const NAME = 'chain-scan-eth';
/** What a transfer to a fresh address sends, in wei. */
const FILLER_WEI = 1_000_000_000_000n;

interface JsonRpcAnswer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A JSON-RPC batch to anvil (its own and the dev accounts' methods; loopback, no credentials). */
async function batch(url: string, calls: Array<{ method: string; params: unknown[] }>): Promise<unknown[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call }))),
  });
  const answers = (await res.json()) as JsonRpcAnswer[];
  const failed = answers.find((answer) => answer.error);
  if (failed) throw new Error(`anvil ${calls[failed.id]!.method}: ${failed.error!.message} (RPC error ${failed.error!.code})`);
  return answers.sort((a, b) => a.id - b.id).map((answer) => answer.result);
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

async function buildBlocks(url: string, rpc: EvmRpcClient, addresses: readonly string[], sizes: ChainScanSizes): Promise<ScanRange> {
  const t0 = performance.now();
  const [accounts] = (await batch(url, [{ method: 'eth_accounts', params: [] }])) as [string[]];
  if (accounts.length === 0) throw new Error('the anvil node has no dev accounts');
  // Explicit nonces: anvil answers a batch's calls concurrently, and two sends from one account would pick one nonce.
  const nonces = ((await batch(url, accounts.map((account) => ({ method: 'eth_getTransactionCount', params: [account, 'pending'] })))) as string[]).map((n) => BigInt(n));
  const startHeight = await rpc.blockNumber();
  const payment = hex(parseEther(REQUEST_AMOUNT));
  for (let block = 0; block < sizes.blocks; block += 1) {
    const paying = paidAddressesOf(addresses, block, sizes.payments);
    const sends = Array.from({ length: sizes.transactions }, (_, i) => {
      const sender = i % accounts.length;
      const nonce = nonces[sender]!;
      nonces[sender] = nonce + 1n;
      const to = paying[i] ?? `0x${randomBytes(20).toString('hex')}`;
      return { method: 'eth_sendTransaction', params: [{ from: accounts[sender], to, value: i < paying.length ? payment : hex(FILLER_WEI), nonce: hex(nonce) }] };
    });
    await batch(url, sends);
    await batch(url, [{ method: 'anvil_mine', params: ['0x1'] }]);
  }
  const endHeight = await rpc.blockNumber();
  const last = await rpc.block(endHeight);
  if (last.transactions.length !== sizes.transactions) throw new Error(`the last block holds ${last.transactions.length} transactions, not ${sizes.transactions}`);
  benchLog(`built ${endHeight - startHeight} blocks of ${sizes.transactions} transfers in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
  return { startHeight, startHash: await rpc.blockHash(startHeight), endHeight };
}

runBenchmark(async () => {
  const sizes = chainScanSizes(200);
  const url = requireRpcUrl('CRYPTO_ETH_RPC_URL');
  const rpc = new EvmRpcClient({ url, timeoutMs: 60_000 });
  const prepared = await prepareRequests('ETH', sizes.requests);
  try {
    const range = await buildBlocks(url, rpc, prepared.addresses, sizes);
    const source = new EvmBlockSource('ethereum', rpc, { chainId: EVM_CHAIN_IDS.regtest.ethereum });
    return await measureChainScan({
      name: NAME,
      chainLabel: 'anvil (ethereum, chain id 31337)',
      sizes,
      blockShape: `${sizes.transactions} value transfers`,
      ours: watcherRunner(prepared.orm, source, range, sizes.blocks * sizes.payments, new CpuProfiler(NAME)),
      baseline: nodeRunner('anvil eth_getBlockByNumber (full transactions)', range, (height) => rpc.block(height)),
      notes: [
        'baseline: EvmRpcClient.block per block (eth_getBlockByNumber with full transactions through viem\'s public client): the same client and parsing the watcher\'s EvmBlockSource uses. The watcher also reads one eth_getTransactionReceipt per transfer that pays a request (reverted transactions move nothing) and one block hash per scan for the reorg check.',
        `Each block: ${sizes.payments} transfers of ${REQUEST_AMOUNT} ETH to requests' addresses, the rest to fresh random addresses, from anvil's dev accounts (eth_sendTransaction, then anvil_mine); the node runs on the same machine.`,
      ],
    });
  } finally {
    await prepared.orm.close();
    await prepared.db.drop();
  }
});
