// Blocks of a UTXO chain (bitcoin, litecoin) as the watcher reads them: `getblock <hash> 2` over the Bitcoin Core
// JSON-RPC bitcoind and litecoind share; every output paying one address is a transfer (bare scripts and multisig
// outputs name no single address and are skipped).
import { outputAddress, type UtxoRpcClient } from '../chain-nodes/index.js';
import type { BlockSource, BlockTransfer, ChainBlock } from './block-source.js';

export type UtxoChain = 'bitcoin' | 'litecoin';

export class UtxoBlockSource implements BlockSource {
  constructor(
    readonly chain: UtxoChain,
    private readonly rpc: UtxoRpcClient,
  ) {}

  tipHeight(): Promise<number> {
    return this.rpc.getBlockCount();
  }

  blockHash(height: number): Promise<string> {
    return this.rpc.getBlockHash(height);
  }

  async block(height: number): Promise<ChainBlock> {
    const block = await this.rpc.getBlock(await this.rpc.getBlockHash(height));
    const transfers: BlockTransfer[] = [];
    for (const tx of block.tx) {
      for (const output of tx.vout) {
        const address = outputAddress(output);
        if (address !== null) transfers.push({ txid: tx.txid, index: output.n, address, amount: output.value });
      }
    }
    return { height: block.height, hash: block.hash, parentHash: block.previousblockhash ?? null, transfers };
  }
}
