// The Bitcoin Core JSON-RPC that bitcoind and litecoind share (issue 12 §2): what the UTXO watcher reads from a node.
// One POST per call, HTTP basic auth from the URL's user and password (never logged: errors name the method and the
// node's host only), a deadline per call. Wallet calls (tests fund payments with them) go to /wallet/<name>.
export interface UtxoRpcClientOptions {
  /** `http://<user>:<password>@host:port` (CRYPTO_<ASSET>_RPC_URL). */
  url: string;
  /** Per call; default 10 s. */
  timeoutMs?: number;
}

/** A JSON-RPC error the node answered (`code` as Bitcoin Core defines it, e.g. -5 not found, -8 invalid parameter). */
export class UtxoRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (RPC error ${code})`);
    this.name = 'UtxoRpcError';
  }
}

export interface BlockchainInfo {
  chain: string;
  blocks: number;
  bestblockhash: string;
}

export interface RpcTransactionOutput {
  /** The amount in whole coins exactly as the node wrote it (e.g. "0.50000000"): kept as text, never a float. */
  value: string;
  n: number;
  /** Bitcoin Core 22+ names one `address`; Core 0.21, which Litecoin Core 0.21 is built on, lists `addresses`. */
  scriptPubKey: { hex: string; type: string; address?: string; addresses?: string[] };
}

/** The one address an output pays, whichever way the node's version names it; null for a bare script or several keys. */
export function outputAddress(output: RpcTransactionOutput): string | null {
  const { address, addresses } = output.scriptPubKey;
  if (address !== undefined) return address;
  return addresses?.length === 1 ? addresses[0]! : null;
}

export interface RpcTransaction {
  txid: string;
  vout: RpcTransactionOutput[];
}

/** `getblock <hash> 2`: the block with its transactions decoded. */
export interface RpcBlock {
  hash: string;
  height: number;
  confirmations: number;
  previousblockhash?: string;
  tx: RpcTransaction[];
}

export class UtxoRpcClient {
  private readonly endpoint: string;
  private readonly authorization: string;
  private readonly host: string;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(options: UtxoRpcClientOptions) {
    const url = new URL(options.url);
    this.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    this.host = url.host;
    this.endpoint = `${url.protocol}//${url.host}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** One call; `wallet` sends it to that wallet's endpoint. Throws UtxoRpcError for an answered error. */
  async call<T>(method: string, params: unknown[] = [], options: { wallet?: string } = {}): Promise<T> {
    const path = options.wallet === undefined ? '/' : `/wallet/${encodeURIComponent(options.wallet)}`;
    const res = await fetch(`${this.endpoint}${path}`, {
      method: 'POST',
      headers: { authorization: this.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Bitcoin Core answers errors with HTTP 404/500 and a JSON body; 401 has none.
    if (res.status === 401 || res.status === 403) throw new Error(`${method}: the node at ${this.host} refused the RPC credentials (HTTP ${res.status})`);
    const body = parseRpcBody<T>(await res.text());
    if (!body) throw new Error(`${method}: the node at ${this.host} answered HTTP ${res.status} without a JSON-RPC body`);
    if (body.error) throw new UtxoRpcError(method, body.error.code, body.error.message);
    return body.result as T;
  }

  /** The current tip's height. */
  async getBlockCount(): Promise<number> {
    return this.call<number>('getblockcount');
  }

  getBlockchainInfo(): Promise<BlockchainInfo> {
    return this.call('getblockchaininfo');
  }

  getBlockHash(height: number): Promise<string> {
    return this.call('getblockhash', [height]);
  }

  /** The block with every transaction decoded (verbosity 2): what a block scan reads. */
  getBlock(hash: string): Promise<RpcBlock> {
    return this.call('getblock', [hash, 2]);
  }
}

/**
 * A JSON-RPC answer with every output `value` kept as the node's own decimal text (JSON.parse's source text access,
 * Node 21+): 8-decimal amounts up to 21 million coins have more digits than a double holds. Null when it is not JSON.
 */
function parseRpcBody<T>(text: string): { result?: T; error?: { code: number; message: string } | null } | null {
  try {
    return JSON.parse(text, (key, value: unknown, context?: { source?: string }) => (key === 'value' && typeof value === 'number' ? (context?.source ?? String(value)) : value)) as {
      result?: T;
      error?: { code: number; message: string } | null;
    };
  } catch {
    return null;
  }
}
