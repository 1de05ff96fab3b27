// Per-account receive keys and atomic allocation of fresh receive addresses.
import type { EntityManager } from '@mikro-orm/core';
import { BusinessRuleError, ValidationError } from '@tributary/kit';
import { AccountXpub } from './account-xpub.entity.js';
import {
  InvalidXpubError,
  MAX_RECEIVE_INDEX,
  RECEIVE_ASSETS,
  deriveReceiveAddress,
  isReceiveAsset,
  parseAccountXpub,
  type ReceiveAsset,
} from './derivation.js';

export interface AllocatedReceiveAddress {
  asset: ReceiveAsset;
  /** Receive index on the external chain: the address is `<account xpub>/0/<index>`. */
  index: number;
  address: string;
}

/**
 * Validates operator input `{ASSET: xpub}` (e.g. from repeated `--xpub ASSET=XPUB`): known asset codes only,
 * each key valid for its asset (see `parseAccountXpub`). Throws the kit's ValidationError with one field per
 * offending entry (`xpub.BTC`, …) and a readable message; returns the trimmed keys.
 */
export function validateAccountXpubs(input: Record<string, string>): Partial<Record<ReceiveAsset, string>> {
  const fields: Record<string, string[]> = {};
  const keys: Partial<Record<ReceiveAsset, string>> = {};
  for (const [code, xpub] of Object.entries(input)) {
    if (!isReceiveAsset(code)) {
      fields[`xpub.${code}`] = [`Unknown asset "${code}"; expected one of ${RECEIVE_ASSETS.join(', ')}.`];
      continue;
    }
    try {
      parseAccountXpub(code, xpub);
      keys[code] = xpub.trim();
    } catch (error) {
      if (!(error instanceof InvalidXpubError)) throw error;
      fields[`xpub.${code}`] = [error.message];
    }
  }
  if (Object.keys(fields).length > 0) {
    throw new ValidationError(fields, Object.values(fields).flat().join(' '));
  }
  return keys;
}

/**
 * Stores (or replaces) the account's receive keys, validating each first. A replaced key keeps its row's
 * `next_index`: indices only grow, so no index is ever handed out twice. Runs in the caller's transaction
 * when there is one. Assets not named are left as they are.
 */
export async function saveAccountXpubs(em: EntityManager, accountId: number, xpubs: Partial<Record<ReceiveAsset, string>>): Promise<void> {
  const valid = validateAccountXpubs(xpubs as Record<string, string>);
  const connection = em.getConnection();
  for (const [asset, xpub] of Object.entries(valid)) {
    await connection.execute(
      `insert into "account_xpubs" ("account_id", "asset", "xpub", "next_index", "created_at", "updated_at")
       values (?, ?, ?, 0, now(), now())
       on conflict ("account_id", "asset") do update set "xpub" = excluded."xpub", "updated_at" = excluded."updated_at"`,
      [accountId, asset, xpub],
      'run',
      em.getTransactionContext(),
    );
  }
}

/** The account's configured receive keys (asset -> xpub). */
export async function accountXpubs(em: EntityManager, accountId: number): Promise<Partial<Record<ReceiveAsset, string>>> {
  const rows = await em.fork().find(AccountXpub, { account: accountId }, { orderBy: { asset: 'asc' } });
  return Object.fromEntries(rows.map((row) => [row.asset, row.xpub]));
}

/**
 * Takes the next unused receive index of (account, asset) and derives its address.
 * One statement, `UPDATE … SET next_index = next_index + 1 … RETURNING`: PostgreSQL row-locks the cursor, so
 * concurrent callers are serialized on that row and each gets a distinct index. Inside the caller's
 * transaction (e.g. creating a payment request) the lock is held until commit; a rollback gives the index back,
 * a commit consumes it. Throws a BusinessRuleError (422) when the account has no key for the asset.
 */
export async function allocateReceiveAddress(em: EntityManager, accountId: number, asset: ReceiveAsset): Promise<AllocatedReceiveAddress> {
  const rows = await em.getConnection().execute<Array<{ xpub: string; index: number }>>(
    `update "account_xpubs" set "next_index" = "next_index" + 1
     where "account_id" = ? and "asset" = ? and "next_index" <= ?
     returning "xpub", "next_index" - 1 as "index"`,
    [accountId, asset, MAX_RECEIVE_INDEX],
    'all',
    em.getTransactionContext(),
  );
  const row = rows[0];
  if (!row) {
    throw new BusinessRuleError(`No receive key is configured for ${asset} on this account (or its ${MAX_RECEIVE_INDEX + 1} receive addresses are used up).`, {
      asset_id: [`${asset} is not available for this account.`],
    });
  }
  const index = Number(row.index);
  return { asset, index, address: deriveReceiveAddress(asset, row.xpub, index) };
}
