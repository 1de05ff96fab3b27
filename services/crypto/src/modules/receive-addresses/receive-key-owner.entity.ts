import { defineEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/index.js';

/**
 * Which account an extended public key belongs to, forever: one row per key, keyed by its identity
 * (`receiveKeyIdentity`: chain code + public key, so the same key under another prefix is the same row). Written by
 * `saveAccountXpubs` in the transaction that stores the key; never removed when the account replaces the key, because
 * its earlier requests still use addresses of the old one. The primary key is what refuses a second account: two
 * accounts with one key would derive the same addresses, and a payment to them could not be attributed.
 * One account may use its key for several assets (BTC and LTC share BIP84 coin 1; ETH and MATIC coin 60).
 */
export const ReceiveKeyOwnerSchema = defineEntity({
  name: 'ReceiveKeyOwner',
  tableName: 'receive_key_owners',
  properties: {
    keyIdentity: p.string().length(64).primary(),
    account: () => p.manyToOne(Account).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ReceiveKeyOwner extends ReceiveKeyOwnerSchema.class {}
ReceiveKeyOwnerSchema.setClass(ReceiveKeyOwner);
