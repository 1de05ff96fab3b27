// Assets (spec "Asset table"): the table's fixed rows, their confirmation thresholds and the operator's changes to them.
import { AssetSchema } from './asset.entity.js';

export * from './asset-table.js';
export * from './asset.entity.js';
export * from './asset.repository.js';
export * from './asset.service.js';

export const assetEntities = [AssetSchema];
