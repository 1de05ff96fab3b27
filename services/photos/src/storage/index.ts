// Where media bytes live (local disk or S3-compatible object storage), behind one contract.
export { createMediaStorage, DEFAULT_MEDIA_STORAGE_DIR, type MediaStorageConfig } from './create-media-storage.js';
export type { MediaStorage, StoredObject } from './media-storage.js';
export { LocalMediaStorage } from './local-media-storage.js';
export { S3MediaStorage, type S3StorageConfig } from './s3-media-storage.js';
