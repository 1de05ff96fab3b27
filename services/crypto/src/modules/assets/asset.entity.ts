import { defineEntity, p } from '@mikro-orm/core';
import type { Amount } from '../../money/index.js';
import { ASSET_CODES, CHAINS, assetDefinition } from './asset-table.js';
import { AssetRepository } from './asset.repository.js';

/**
 * A supported asset (spec "Asset table"). Rows are created by the migration with fixed ids 1..4 (the create body's
 * asset_id); only `confirmations` ever changes, and never below the spec default.
 */
export const AssetSchema = defineEntity({
  name: 'Asset',
  tableName: 'assets',
  repository: () => AssetRepository,
  properties: {
    id: p.integer().primary().autoincrement(false),
    code: p.enum(ASSET_CODES).unique(),
    chain: p.enum(CHAINS),
    decimals: p.integer(),
    confirmations: p.integer(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

/** What `assets` (operator command) and callers show: the dashboard's view of an asset. */
export interface AssetView {
  id: number;
  code: string;
  chain: string;
  decimals: number;
  confirmations: number;
}

export class Asset extends AssetSchema.class {
  /** The spec's default confirmations for this asset: the lowest threshold allowed. */
  get defaultConfirmations(): number {
    return assetDefinition(this.code).defaultConfirmations;
  }

  /** Whether a payment with this many confirmations counts. */
  isConfirmed(confirmations: number): boolean {
    return confirmations >= this.confirmations;
  }

  /** Whether an amount is representable in this asset's decimals. */
  fits(amount: Amount): boolean {
    return amount.fitsDecimals(this.decimals);
  }

  toView(): AssetView {
    return { id: this.id, code: this.code, chain: this.chain, decimals: this.decimals, confirmations: this.confirmations };
  }
}
AssetSchema.setClass(Asset);
