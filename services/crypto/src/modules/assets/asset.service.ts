import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError } from '@tributary/kit';
import { ASSET_CODES, MAX_CONFIRMATIONS, isAssetCode } from './asset-table.js';
import { Asset } from './asset.entity.js';

export class AssetService {
  constructor(private readonly em: EntityManager) {}

  private get assets() {
    return this.em.getRepository(Asset);
  }

  /** Every supported asset, ordered by id. */
  list(): Promise<Asset[]> {
    return this.assets.listAll();
  }

  /** The asset with this id (the create body's asset_id), or null; the caller turns null into its own 422. */
  async byId(id: number): Promise<Asset | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    return this.assets.findOne({ id });
  }

  /** The asset with this code (case-insensitive), or null. */
  async byCode(code: string): Promise<Asset | null> {
    const normalised = code.trim().toUpperCase();
    return isAssetCode(normalised) ? this.assets.findByCode(normalised) : null;
  }

  /**
   * Sets an asset's confirmation threshold (operator command `asset confirmations ASSET N`). Any whole number from
   * the spec default up to MAX_CONFIRMATIONS is accepted, so a raise can later be undone down to the default but
   * never below it. Throws BusinessRuleError (422) with a message naming the problem.
   */
  async raiseConfirmations(code: string, confirmations: number): Promise<Asset> {
    const asset = await this.byCode(code);
    if (!asset) {
      throw new BusinessRuleError(`Unknown asset "${code}": expected one of ${ASSET_CODES.join(', ')}.`, {
        asset: [`Unknown asset; expected one of ${ASSET_CODES.join(', ')}.`],
      });
    }
    const floor = asset.defaultConfirmations;
    if (!Number.isInteger(confirmations) || confirmations < floor || confirmations > MAX_CONFIRMATIONS) {
      const message = Number.isInteger(confirmations) && confirmations < floor
        ? `${asset.code} confirmations cannot go below the spec default of ${floor} (asked for ${confirmations}).`
        : `${asset.code} confirmations must be a whole number from ${floor} to ${MAX_CONFIRMATIONS} (asked for ${confirmations}).`;
      throw new BusinessRuleError(message, { confirmations: [message] });
    }
    asset.confirmations = confirmations;
    await this.em.flush();
    return asset;
  }
}
