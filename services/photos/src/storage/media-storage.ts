// Where photo and video bytes live: local disk by default, S3-compatible object storage when configured. Keys are
// opaque server-made paths (`teams/<team>/photos/<uuid>/original`), never derived from user input and never served
// directly: the service serves media through its own access-checked URLs.
import type { Readable } from 'node:stream';

export interface StoredObject {
  sizeBytes: number;
}

export interface MediaStorage {
  /** Stores the stream under `key` (creating or replacing it); resolves once the bytes are durable. */
  put(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: string } | null>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
}
