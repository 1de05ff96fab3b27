import { defineEntity, p } from '@mikro-orm/core';
import type { Amount } from '../../money/index.js';
import { AmountType } from '../../money/index.js';
import { CHAINS } from '../assets/index.js';
import { PaymentRequest } from '../payment-requests/index.js';

/**
 * One incoming on-chain payment (a transaction output on bitcoin/litecoin, a log/transfer index on EVM chains),
 * unique on (chain, txid, output_index): reporting it again never credits it twice. `counted` is set once its
 * confirmations reach the asset's threshold; only counted payments are in the request's amount_paid.
 */
export const PaymentSchema = defineEntity({
  name: 'Payment',
  tableName: 'payments',
  uniques: [{ name: 'payments_chain_txid_output_index_unique', properties: ['chain', 'txid', 'outputIndex'] }],
  // A chain watcher's recount and a reorg's undo read one chain's payments by block height.
  indexes: [{ name: 'payments_chain_block_height_index', properties: ['chain', 'blockHeight'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    paymentRequest: () => p.manyToOne(PaymentRequest).deleteRule('cascade').index('payments_payment_request_id_index'),
    chain: p.enum(CHAINS),
    txid: p.string().length(128),
    outputIndex: p.integer(),
    address: p.string().length(120),
    amount: p.type(AmountType),
    confirmations: p.integer(),
    // The block it is in, when a chain watcher found it (its confirmations are recounted from it); null from `pay`.
    blockHeight: p.integer().nullable(),
    blockHash: p.string().length(128).nullable(),
    // Set when its block left the chain in a reorg (README Decisions, "Reorg"): not counted, kept for the record; the
    // block it was in is kept here. Cleared when the transaction is mined again on the new branch.
    orphanedAt: p.datetime().nullable(),
    orphanedBlockHash: p.string().length(128).nullable(),
    counted: p.boolean().default(false),
    countedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Payment extends PaymentSchema.class {
  get value(): Amount {
    return this.amount as Amount;
  }
}
PaymentSchema.setClass(Payment);
