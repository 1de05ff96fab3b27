// The run's Litecoin Core regtest node (npm test starts it; CRYPTO_LTC_RPC_URL) as the chain tests use it: a funded
// wallet per test file, blocks mined on demand, real payments to the gateway's addresses.
import { UtxoRpcClient, UtxoRpcError } from '../src/modules/chain-nodes/index.js';

export const LTC_ASSET_ID = 3;

export function litecoinRpcUrl(): string {
  const url = process.env['CRYPTO_LTC_RPC_URL'];
  if (!url) throw new Error('CRYPTO_LTC_RPC_URL is not set: run through `npm test`, which starts litecoind in regtest (Debian package litecoind).');
  return url;
}

export interface LitecoinTestNode {
  rpc: UtxoRpcClient;
  /** Blocks to the wallet's mining address; returns their hashes. */
  mine(blocks: number): Promise<string[]>;
  /** Blocks to a new address: after invalidateblock, a block to the same address at the same second would repeat the invalid one. */
  mineElsewhere(blocks: number): Promise<string[]>;
  /** A real payment from the wallet; returns the txid. */
  pay(address: string, amount: number): Promise<string>;
}

/** The node with the wallet `wallet` (created or loaded) holding mature coins. */
export async function litecoinTestNode(wallet: string): Promise<LitecoinTestNode> {
  const rpc = new UtxoRpcClient({ url: litecoinRpcUrl() });
  if (!(await rpc.call<string[]>('listwallets')).includes(wallet)) {
    await rpc.call('createwallet', [wallet]).catch(async (error: unknown) => {
      if (!(error instanceof UtxoRpcError)) throw error;
      await rpc.call('loadwallet', [wallet]);
    });
  }
  const newAddress = () => rpc.call<string>('getnewaddress', ['', 'bech32'], { wallet });
  const miner = await newAddress();
  await rpc.call('generatetoaddress', [101, miner]);
  return {
    rpc,
    mine: (blocks) => rpc.call<string[]>('generatetoaddress', [blocks, miner]),
    mineElsewhere: async (blocks) => rpc.call<string[]>('generatetoaddress', [blocks, await newAddress()]),
    pay: (address, amount) => rpc.call<string>('sendtoaddress', [address, amount], { wallet }),
  };
}
