import { defineEntity, p } from '@mikro-orm/core';
import type { Amount } from '../../money/index.js';
import { AmountType } from '../../money/index.js';
import { Account } from '../accounts/index.js';
import { Asset, CHAINS } from '../assets/index.js';
import { CHAIN_NETWORKS } from '../receive-addresses/index.js';
import { PaymentRequestRepository } from './payment-request.repository.js';
import {
  PAYMENT_REQUEST_STATUSES,
  PAYMENT_REQUEST_TYPES,
  amountOutstanding,
  effectiveStatus,
  type PaymentRequestStatus,
  type RequestState,
} from './status-engine.js';

/**
 * A payment request: a fixed-amount invoice or an open-amount donation link, with its own receive address.
 * `id` is the internal integer (merchant routes' {id}); `slug` is the public id (the object's `id`).
 * `status` is the stored status; read `statusAt(now)` for what the API reports (deadline applied).
 */
export const PaymentRequestSchema = defineEntity({
  name: 'PaymentRequest',
  tableName: 'payment_requests',
  repository: () => PaymentRequestRepository,
  uniques: [
    // A key is used once per account; NULLs (creates without a key) never collide.
    { name: 'payment_requests_account_id_idempotency_key_unique', properties: ['account', 'idempotencyKey'] },
    // An inbound payment is attributable to one request: a receive address belongs to one request on its chain. Only
    // the legacy rows flagged `address_conflict` (shared before keys had owners) are outside it.
    { name: 'payment_requests_chain_address_unique', properties: ['chain', 'address'], where: { addressConflict: false } },
  ],
  indexes: [
    // The list's `reference` filter (reconciliation by order id) reads one account's rows by reference.
    { name: 'payment_requests_account_id_reference_index', properties: ['account', 'reference'] },
    // A payment's lookup by (chain, address), flagged rows included (and the allocator's "address in use" check).
    { name: 'payment_requests_chain_address_index', properties: ['chain', 'address'] },
    // The list's order (newest first: created_at desc, id desc) read backwards, no sort per page; also the account FK's.
    { name: 'payment_requests_account_id_created_at_id_index', properties: ['account', 'createdAt', 'id'] },
    // Gap-limit telemetry: one account's highest (paid) receive index per asset, read backwards from the end.
    { name: 'payment_requests_account_id_asset_id_address_index_index', properties: ['account', 'asset', 'addressIndex'] },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    slug: p.string().length(32).unique(),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    asset: () => p.manyToOne(Asset),
    type: p.enum(PAYMENT_REQUEST_TYPES),
    status: p.enum(PAYMENT_REQUEST_STATUSES),
    title: p.string().length(191),
    description: p.text().nullable(),
    reference: p.string().length(128).nullable(),
    // The asset's chain, stored so (chain, address) can be unique; set at creation, never changes.
    chain: p.enum(CHAINS),
    address: p.string().length(120),
    // The chain network the request was made on (CRYPTO_NETWORK then); set at creation, never changes. Only a payment
    // seen on this network counts for it (test networks and regtest share keys, so one address is valid on both).
    network: p.enum(CHAIN_NETWORKS),
    // True only for requests made before keys had owners whose address another request on the chain also has: a
    // payment to it cannot be attributed by address and is recorded by slug. Never set for a new request.
    addressConflict: p.boolean().default(false),
    // Receive index of the address on the account's key for this asset (`<xpub>/0/<index>`).
    addressIndex: p.bigint('number'),
    amountRequested: p.type(AmountType).nullable(),
    amountPaid: p.type(AmountType),
    expiresAt: p.datetime().nullable(),
    paidAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    webhookUrl: p.string().length(2048).nullable(),
    redirectUrl: p.string().length(2048).nullable(),
    // The create's Idempotency-Key and the SHA-256 of its normalised body: a retry with the same key and body
    // returns this request instead of a second one (payment-request.idempotency.ts).
    idempotencyKey: p.string().length(255).nullable(),
    idempotencyFingerprint: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class PaymentRequest extends PaymentRequestSchema.class {
  /** The engine's view of this request. */
  toState(): RequestState {
    return {
      type: this.type,
      status: this.status,
      amountRequested: (this.amountRequested as Amount | null | undefined) ?? null,
      amountPaid: this.amountPaid as Amount,
      expiresAt: this.expiresAt ?? null,
      paidAt: this.paidAt ?? null,
    };
  }

  /** Writes an engine state back (status, amounts, paid_at). */
  applyState(state: RequestState): void {
    this.status = state.status;
    this.amountPaid = state.amountPaid;
    this.paidAt = state.paidAt;
  }

  /** The status the API reports at `now`: a pending/partial invoice past its deadline reads expired. */
  statusAt(now: Date): PaymentRequestStatus {
    return effectiveStatus(this.toState(), now);
  }

  get amountOutstanding(): Amount | null {
    return amountOutstanding(this.toState());
  }
}
PaymentRequestSchema.setClass(PaymentRequest);
