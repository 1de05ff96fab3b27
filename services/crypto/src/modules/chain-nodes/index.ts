// Talking to chain nodes (issue 12): the JSON-RPC clients the chain watchers read blocks through (Bitcoin Core
// JSON-RPC for BTC/LTC, Ethereum JSON-RPC for ETH/MATIC).
export { UtxoRpcClient, UtxoRpcError, outputAddress, type BlockchainInfo, type RpcBlock, type RpcTransaction, type RpcTransactionOutput, type UtxoRpcClientOptions } from './utxo-rpc-client.js';
export { EvmRpcClient, EvmRpcError, type EvmBlock, type EvmReceipt, type EvmRpcClientOptions, type EvmTransaction } from './evm-rpc-client.js';
