import { defineEntity, p } from '@mikro-orm/core';
import { Account } from '../accounts/index.js';
import { RECEIVE_ASSETS } from './derivation.js';

/**
 * One account's receive key for one asset: the account-level extended PUBLIC key the merchant exported
 * (validated on save) and the cursor `next_index`, the first receive index (`<xpub>/0/i`) not yet handed out.
 * The row is the unit of allocation: `allocateReceiveAddress` bumps `next_index` with one
 * `UPDATE … RETURNING`, so concurrent payment requests never share an index. Indices only ever grow,
 * also when the key is replaced, so an address is never handed out twice for the same key.
 * Primary key (account, asset): at most one key per asset per account.
 * `key_first_index` is the cursor when the current key was saved (0 for an account's first key): the current key's
 * addresses are indices key_first_index … next_index - 1, the earlier ones belong to keys it replaced (gap-limit.ts).
 */
export const AccountXpubSchema = defineEntity({
  name: 'AccountXpub',
  tableName: 'account_xpubs',
  properties: {
    account: () => p.manyToOne(Account).primary().deleteRule('cascade'),
    asset: p.enum(RECEIVE_ASSETS).primary(),
    xpub: p.string().length(120),
    // bigint: after handing out the last index 2^31 - 1 the cursor holds 2^31 (exhausted), which int cannot store.
    nextIndex: p.bigint('number').default(0),
    // Where the current key's requests start; a replacement sets it to the cursor, re-saving the same key keeps it.
    keyFirstIndex: p.bigint('number').default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class AccountXpub extends AccountXpubSchema.class {}
AccountXpubSchema.setClass(AccountXpub);
