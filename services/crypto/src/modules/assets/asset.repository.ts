import { EntityRepository } from '@mikro-orm/postgresql';
import type { Asset } from './asset.entity.js';
import type { AssetCode } from './asset-table.js';

export class AssetRepository extends EntityRepository<Asset> {
  /** Every asset, by id (BTC, ETH, LTC, MATIC). */
  listAll(): Promise<Asset[]> {
    return this.findAll({ orderBy: { id: 'asc' } });
  }

  findByCode(code: AssetCode): Promise<Asset | null> {
    return this.findOne({ code });
  }
}
