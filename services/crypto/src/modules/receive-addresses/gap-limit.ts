// Gap-limit telemetry, the pure part. A wallet that watches an account key (Electrum, Sparrow, Ledger Live, …) finds
// its addresses by deriving <key>/0/0, /0/1, … and stops after `gap limit` consecutive addresses without a
// transaction (BIP44 account discovery; 20 in most wallets). Every request takes the next index, paid or not, so a shop
// whose customers abandon invoices leaves a run of unused addresses at the end, and once that run is longer than the
// wallet's gap limit the wallet no longer shows payments to the newest addresses (the funds are there; the wallet does
// not look). This computes, for one key, how long that run is and whether it is past the limit, and the advice.
import { envInteger } from '@tributary/kit';
import type { ReceiveAsset } from './derivation.js';

/** CRYPTO_GAP_LIMIT when unset: the gap limit of BIP44 account discovery, what Electrum, Sparrow and Ledger Live use. */
export const DEFAULT_GAP_LIMIT = 20;

/** Largest CRYPTO_GAP_LIMIT: wallets that let you raise it accept values in the hundreds or thousands; this is a typo guard. */
export const MAX_GAP_LIMIT = 100_000;

/** The env field (spread into cryptoEnv; the operator commands read it on its own). */
export const gapLimitFields = {
  CRYPTO_GAP_LIMIT: envInteger(1, MAX_GAP_LIMIT).default(DEFAULT_GAP_LIMIT),
};

/** What the database knows about one key's addresses (indices on the key's external chain, `<key>/0/i`). */
export interface ReceiveIndexUse {
  /** Highest index handed out to a payment request with this key; null when none was. */
  highestDerivedIndex: number | null;
  /** Highest index whose address received a payment (any recorded payment, counted or not); null when none did. */
  highestUsedIndex: number | null;
}

export interface ReceiveAddressGap {
  asset: ReceiveAsset;
  highestDerivedIndex: number | null;
  highestUsedIndex: number | null;
  /** Consecutive unused addresses at the end: the indices after the last used one (from 0 when none is used) up to the highest handed out. */
  unusedRun: number;
  gapLimit: number;
  /** unusedRun > gapLimit: a wallet with this gap limit does not look as far as the newest address. */
  exceedsGapLimit: boolean;
  /** What to change in the wallet, when exceedsGapLimit; null otherwise. */
  warning: string | null;
}

/**
 * The trailing run of unused addresses of one key and whether a wallet with `gapLimit` still sees the newest one.
 * A wallet that has seen a transaction at index u derives up to u + gapLimit (with none, indices 0 … gapLimit - 1),
 * so the highest index h is seen exactly when h - u <= gapLimit; h - u is the run of unused addresses after u (h + 1
 * when nothing is used, counting index 0). Indices below the key's first request count as unused: the wallet of a
 * replacement key starts looking at 0 too.
 */
export function receiveAddressGap(asset: ReceiveAsset, use: ReceiveIndexUse, gapLimit: number): ReceiveAddressGap {
  if (!Number.isSafeInteger(gapLimit) || gapLimit < 1) throw new RangeError(`gap limit must be a whole number >= 1, got ${gapLimit}`);
  const { highestDerivedIndex, highestUsedIndex } = use;
  if (highestUsedIndex !== null && (highestDerivedIndex === null || highestUsedIndex > highestDerivedIndex)) {
    throw new RangeError(`the highest used index ${highestUsedIndex} is above the highest derived index ${String(highestDerivedIndex)}`);
  }
  const unusedRun = highestDerivedIndex === null ? 0 : highestDerivedIndex - (highestUsedIndex ?? -1);
  const exceedsGapLimit = unusedRun > gapLimit;
  return {
    asset,
    highestDerivedIndex,
    highestUsedIndex,
    unusedRun,
    gapLimit,
    exceedsGapLimit,
    warning: exceedsGapLimit && highestDerivedIndex !== null ? gapWarning(asset, highestDerivedIndex, highestUsedIndex, unusedRun, gapLimit) : null,
  };
}

/**
 * The warning: what is wrong, what is safe, and the wallet setting to change. Only the settings we can name precisely;
 * the rest is "rescan with a larger gap limit". EVM wallets do not scan a key's receive chain the way Bitcoin wallets
 * do, so for ETH/MATIC the advice is to add addresses up to the index instead.
 */
export function gapWarning(asset: ReceiveAsset, highestDerivedIndex: number, highestUsedIndex: number | null, unusedRun: number, gapLimit: number): string {
  const after = highestUsedIndex === null ? 'and none has been paid yet' : `after the last paid one (index ${highestUsedIndex})`;
  const what =
    `${asset}: ${unusedRun} receive addresses in a row are unused ${after}, more than the gap limit of ${gapLimit}. ` +
    `A wallet that stops looking after ${gapLimit} unused addresses will not show payments to the newest ones (up to index ${highestDerivedIndex}); ` +
    'the payments are still on the chain and in this gateway. ';
  if (asset === 'ETH' || asset === 'MATIC') {
    return `${what}In an EVM wallet that shows one address per account (e.g. MetaMask), add accounts up to index ${highestDerivedIndex} to see them.`;
  }
  return (
    `${what}Raise the wallet's gap limit to at least ${unusedRun}: Electrum: in the Console, wallet.change_gap_limit(${unusedRun}); ` +
    'Sparrow: the wallet\'s Settings → Advanced → Gap limit; other wallets: a gap-limit or address-discovery setting, then a rescan. ' +
    'Ledger Live cannot change it: check these payments here or in a wallet that can.'
  );
}
