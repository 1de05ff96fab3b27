// Per-account receive keys (each key owned by one account) and atomic allocation of fresh receive addresses.
import type { EntityManager } from '@mikro-orm/core';
import { BusinessRuleError, ValidationError } from '@tributary/kit';
import { assetDefinition } from '../assets/index.js';
import { AccountXpub } from './account-xpub.entity.js';
import {
  InvalidXpubError,
  MAX_RECEIVE_INDEX,
  RECEIVE_ASSETS,
  deriveReceiveAddress,
  isReceiveAsset,
  parseAccountXpub,
  receiveKeyIdentity,
  type ChainNetwork,
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
export function validateAccountXpubs(network: ChainNetwork, input: Record<string, string>): Partial<Record<ReceiveAsset, string>> {
  const fields: Record<string, string[]> = {};
  const keys: Partial<Record<ReceiveAsset, string>> = {};
  for (const [code, xpub] of Object.entries(input)) {
    if (!isReceiveAsset(code)) {
      fields[`xpub.${code}`] = [`Unknown asset "${code}"; expected one of ${RECEIVE_ASSETS.join(', ')}.`];
      continue;
    }
    try {
      parseAccountXpub(network, code, xpub);
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
 * Stores (or replaces) the account's receive keys, validating each first. Each key becomes the account's for good
 * (receive_key_owners); a key that already belongs to another account, under any prefix, is refused with a
 * ValidationError on `xpub.<ASSET>` and nothing is stored. A replaced key keeps its row's `next_index`: indices only
 * grow, so no index is ever handed out twice; the new key's requests start there (`key_first_index`). One transaction (the caller's when there is one), so the ownership
 * check and the save commit together. Assets not named are left as they are.
 */
export async function saveAccountXpubs(em: EntityManager, network: ChainNetwork, accountId: number, xpubs: Partial<Record<ReceiveAsset, string>>): Promise<void> {
  const valid = validateAccountXpubs(network, xpubs as Record<string, string>);
  await em.transactional(async (tx) => {
    await claimReceiveKeys(tx, network, accountId, valid);
    for (const [asset, xpub] of Object.entries(valid) as Array<[ReceiveAsset, string]>) {
      const connection = tx.getConnection();
      // The row is locked until commit, so the comparison and the write see the same current key.
      const [current] = await connection.execute<Array<{ xpub: string }>>(
        'select "xpub" from "account_xpubs" where "account_id" = ? and "asset" = ? for update',
        [accountId, asset],
        'all',
        tx.getTransactionContext(),
      );
      // Another key's requests start at the cursor (key_first_index: gap-limit telemetry counts the current key's only);
      // the same key again, under any prefix, keeps its start.
      const sameKey = current !== undefined && sameReceiveKey(network, asset, current.xpub, xpub);
      await connection.execute(
        `insert into "account_xpubs" ("account_id", "asset", "xpub", "next_index", "key_first_index", "created_at", "updated_at")
         values (?, ?, ?, 0, 0, now(), now())
         on conflict ("account_id", "asset") do update set "xpub" = excluded."xpub", "updated_at" = excluded."updated_at",
           "key_first_index" = case when ? then "account_xpubs"."key_first_index" else "account_xpubs"."next_index" end`,
        [accountId, asset, xpub, sameKey],
        'run',
        tx.getTransactionContext(),
      );
    }
  });
}

/** Whether two extended keys are the same key (same identity, whatever their prefixes); a key unusable on `network` is not. */
function sameReceiveKey(network: ChainNetwork, asset: ReceiveAsset, stored: string, given: string): boolean {
  try {
    return receiveKeyIdentity(parseAccountXpub(network, asset, stored)) === receiveKeyIdentity(parseAccountXpub(network, asset, given));
  } catch (error) {
    if (error instanceof InvalidXpubError) return false;
    throw error;
  }
}

/** Why a key is refused for an account: it is another account's. */
export const keyOwnedByAnotherAccountMessage = (asset: string): string =>
  `${asset}: this extended public key (under this or another prefix) already belongs to another account; every account needs its own key, e.g. another account of the wallet.`;

/**
 * Records the account as the owner of each key it does not own yet and refuses keys owned by another account (one
 * ValidationError naming every such asset). Concurrent claims of one key are serialised by the primary key: the
 * second insert waits for the first transaction and then finds its owner.
 */
async function claimReceiveKeys(tx: EntityManager, network: ChainNetwork, accountId: number, keys: Partial<Record<ReceiveAsset, string>>): Promise<void> {
  const fields: Record<string, string[]> = {};
  for (const [asset, xpub] of Object.entries(keys) as Array<[ReceiveAsset, string]>) {
    const identity = receiveKeyIdentity(parseAccountXpub(network, asset, xpub));
    const connection = tx.getConnection();
    await connection.execute(
      `insert into "receive_key_owners" ("key_identity", "account_id", "created_at") values (?, ?, now()) on conflict ("key_identity") do nothing`,
      [identity, accountId],
      'run',
      tx.getTransactionContext(),
    );
    const [owner] = await connection.execute<Array<{ account_id: number }>>(
      'select "account_id" from "receive_key_owners" where "key_identity" = ?',
      [identity],
      'all',
      tx.getTransactionContext(),
    );
    if (owner?.account_id !== accountId) fields[`xpub.${asset}`] = [keyOwnedByAnotherAccountMessage(asset)];
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields, Object.values(fields).flat().join(' '));
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
 * a commit consumes it. An index whose address a payment request on the asset's chain already has is skipped (it can
 * only be a request made before keys had owners, when two accounts could share a key), so the address handed out
 * is new on its chain. Throws a BusinessRuleError (422) when the account has no key for the asset.
 */
export async function allocateReceiveAddress(em: EntityManager, network: ChainNetwork, accountId: number, asset: ReceiveAsset): Promise<AllocatedReceiveAddress> {
  const { chain } = assetDefinition(asset);
  for (;;) {
    const { xpub, index } = await takeNextIndex(em, accountId, asset);
    const address = deriveOnNetwork(network, asset, xpub, index);
    if (!(await addressInUse(em, chain, address))) return { asset, index, address };
  }
}

/**
 * The address, or a 422 when the account's stored key belongs to the other network family (an operator switched
 * CRYPTO_NETWORK between test networks and mainnet without giving the account keys for it).
 */
function deriveOnNetwork(network: ChainNetwork, asset: ReceiveAsset, xpub: string, index: number): string {
  try {
    return deriveReceiveAddress(network, asset, xpub, index);
  } catch (error) {
    if (!(error instanceof InvalidXpubError)) throw error;
    throw new BusinessRuleError(`The ${asset} receive key of this account cannot be used on ${network}: ${error.message}`, {
      asset_id: [`${asset} is not available for this account on ${network}.`],
    });
  }
}

async function takeNextIndex(em: EntityManager, accountId: number, asset: ReceiveAsset): Promise<{ xpub: string; index: number }> {
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
  return { xpub: row.xpub, index: Number(row.index) };
}

/** Whether a payment request already has this address on this chain (payment_requests' (chain, address) index). */
async function addressInUse(em: EntityManager, chain: string, address: string): Promise<boolean> {
  const rows = await em.getConnection().execute<Array<{ used: boolean }>>(
    'select exists (select 1 from "payment_requests" where "chain" = ? and "address" = ?) as "used"',
    [chain, address],
    'all',
    em.getTransactionContext(),
  );
  return rows[0]?.used === true;
}
