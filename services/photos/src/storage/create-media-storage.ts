// Picks where media lives from the config: S3-compatible object storage when S3_BUCKET is set, else the local disk
// under MEDIA_STORAGE_DIR (a directory in the OS temp dir when unset: a service started by hand or a test).
import os from 'node:os';
import path from 'node:path';
import type { PhotosConfig } from '../config.js';
import { LocalMediaStorage } from './local-media-storage.js';
import { S3MediaStorage, type S3StorageConfig } from './s3-media-storage.js';
import type { MediaStorage } from './media-storage.js';

/** MEDIA_STORAGE_DIR when none is configured (`npm start` passes .stack/media). */
export const DEFAULT_MEDIA_STORAGE_DIR = path.join(os.tmpdir(), 'tributary-photos-media');

export type MediaStorageConfig = Pick<PhotosConfig, 'MEDIA_STORAGE_DIR'> & S3StorageConfig;

export function createMediaStorage(config: MediaStorageConfig): MediaStorage {
  if (config.S3_BUCKET) return S3MediaStorage.fromConfig(config);
  return new LocalMediaStorage(path.resolve(config.MEDIA_STORAGE_DIR ?? DEFAULT_MEDIA_STORAGE_DIR));
}
