export * from './asset-table.js';
export * from './asset.entity.js';
export * from './asset.repository.js';
export * from './asset.service.js';
