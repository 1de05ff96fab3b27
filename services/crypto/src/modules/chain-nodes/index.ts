// Talking to chain nodes (issue 12): the JSON-RPC clients the chain watchers read blocks through.
export { UtxoRpcClient, UtxoRpcError, outputAddress, type BlockchainInfo, type RpcBlock, type RpcTransaction, type RpcTransactionOutput, type UtxoRpcClientOptions } from './utxo-rpc-client.js';
