// Ethereum JSON-RPC, which every EVM node speaks (geth, erigon, reth, bor, anvil; issue 12 §3): what the EVM watcher
// reads from an ethereum or polygon node, through viem's public client. A deadline per call and no retries (the
// watcher's next scan is the retry). The URL's credentials never reach a log: user and password go into an
// Authorization header, and every failure is re-thrown as an EvmRpcError naming the method and the node's host only
// (viem's own errors print the full URL, and hosted nodes put their API key in the path). Two wallet calls serve the
// operator's `pay` on a local node (issue 12 §6): the accounts the node holds keys for, and a value transfer the node
// signs (anvil's unlocked dev accounts; a production node holds no keys and answers neither).
import { createPublicClient, createWalletClient, http, numberToHex, type Address, type Hash, type PublicClient, type WalletClient } from 'viem';

export interface EvmRpcClientOptions {
  /** `http(s)://[user:password@]host[:port][/path]` (CRYPTO_<ASSET>_RPC_URL). */
  url: string;
  /** Per call; default 10 s. */
  timeoutMs?: number;
}

/** A call that failed (the node's JSON-RPC error, HTTP, timeout), without the URL. `code` is the JSON-RPC error code when the node answered one. */
export class EvmRpcError extends Error {
  constructor(
    readonly method: string,
    readonly host: string,
    message: string,
    readonly code?: number,
  ) {
    super(`${method} at ${host}: ${message}${code === undefined ? '' : ` (RPC error ${code})`}`);
    this.name = 'EvmRpcError';
  }
}

/** A transaction as the block scan needs it: value in wei (a bigint, never a float) and the recipient (null for a contract creation). */
export interface EvmTransaction {
  hash: Hash;
  to: string | null;
  value: bigint;
}

export interface EvmBlock {
  number: number;
  hash: Hash;
  parentHash: Hash;
  transactions: EvmTransaction[];
}

export interface EvmReceipt {
  blockHash: Hash;
  succeeded: boolean;
}

export class EvmRpcClient {
  private readonly client: PublicClient;
  /** The same transport, for the node-signed calls (eth_accounts, eth_sendTransaction). */
  private readonly wallet: WalletClient;
  private readonly host: string;
  /** The URL as given and as sent (without user and password): cut out of any error text that quotes them. */
  private readonly urlForms: string[];

  constructor(options: EvmRpcClientOptions) {
    const url = new URL(options.url);
    this.host = url.host;
    // fetch refuses a URL with credentials; basic auth goes in a header instead.
    const headers: Record<string, string> = {};
    if (url.username || url.password) headers['authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
    this.urlForms = [options.url, url.toString(), url.pathname.length > 1 ? url.pathname : ''].filter((form) => form !== '');
    const transport = http(url.toString(), { timeout: options.timeoutMs ?? 10_000, retryCount: 0, fetchOptions: { headers } });
    this.client = createPublicClient({ transport });
    this.wallet = createWalletClient({ transport });
  }

  /** eth_chainId: the EIP-155 chain id the node runs. */
  chainId(): Promise<number> {
    return this.call('eth_chainId', () => this.client.getChainId());
  }

  /** eth_blockNumber: the tip's height. */
  async blockNumber(): Promise<number> {
    return Number(await this.call('eth_blockNumber', () => this.client.getBlockNumber({ cacheTime: 0 })));
  }

  /** eth_getBlockByNumber with full transactions: the block on the node's best chain at `height`. */
  async block(height: number): Promise<EvmBlock> {
    const block = await this.call('eth_getBlockByNumber', () => this.client.getBlock({ blockNumber: BigInt(height), includeTransactions: true }));
    if (block.number === null || block.hash === null) throw new EvmRpcError('eth_getBlockByNumber', this.host, `block ${height} is pending, not mined`);
    return {
      number: Number(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      transactions: block.transactions.map((tx) => ({ hash: tx.hash, to: tx.to, value: tx.value })),
    };
  }

  /** eth_getBlockByNumber without transactions: the hash of the block at `height`. */
  async blockHash(height: number): Promise<Hash> {
    const block = await this.call('eth_getBlockByNumber', () => this.client.getBlock({ blockNumber: BigInt(height) }));
    if (block.hash === null) throw new EvmRpcError('eth_getBlockByNumber', this.host, `block ${height} is pending, not mined`);
    return block.hash;
  }

  /** eth_getTransactionReceipt: the block a mined transaction is in and whether it succeeded (a reverted one moved no value). */
  async receipt(hash: Hash): Promise<EvmReceipt> {
    const receipt = await this.call('eth_getTransactionReceipt', () => this.client.getTransactionReceipt({ hash }));
    return { blockHash: receipt.blockHash, succeeded: receipt.status === 'success' };
  }

  /** eth_accounts: the accounts whose keys the node holds (anvil: its dev accounts; a production node: none). */
  accounts(): Promise<Address[]> {
    return this.call('eth_accounts', () => this.wallet.getAddresses());
  }

  /**
   * eth_sendTransaction of `value` wei from `from`, an account whose key the node holds: the node fills in gas, fees and
   * nonce and signs. The value goes as hex of the bigint (never a float). Resolves to the transaction hash; the
   * transaction waits in the node's pool until a block mines it.
   */
  sendValue(from: string, to: string, value: bigint): Promise<Hash> {
    // The node checks the addresses (an ill-formed one is its JSON-RPC error); viem only types them.
    const params = { from: from as Address, to: to as Address, value: numberToHex(value) };
    return this.call('eth_sendTransaction', () => this.wallet.request({ method: 'eth_sendTransaction', params: [params] }));
  }

  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.describe(method, error);
    }
  }

  /**
   * viem's errors carry the URL (and the request body) in their message; only the short reason, the detail (the
   * node's own error text, or why fetch failed), the HTTP status and the node's JSON-RPC code are kept, with the host.
   */
  private describe(method: string, error: unknown): EvmRpcError {
    if (typeof error !== 'object' || error === null) return new EvmRpcError(method, this.host, String(error));
    const { shortMessage, details, status, code } = error as { shortMessage?: unknown; details?: unknown; status?: unknown; code?: unknown };
    const parts = [typeof shortMessage === 'string' ? shortMessage : error instanceof Error ? error.name : 'failed'];
    if (typeof details === 'string' && details !== '') parts.push(this.urlForms.reduce((text, form) => text.split(form).join('<url>'), details).slice(0, 300));
    if (typeof status === 'number') parts.push(`HTTP ${status}`);
    // viem gives transport failures (HTTP, timeout) no JSON-RPC code of its own; a node's answered error keeps the node's.
    const rpcCode = typeof code === 'number' && Number.isInteger(code) ? code : undefined;
    return new EvmRpcError(method, this.host, parts.join(' '), rpcCode);
  }
}
