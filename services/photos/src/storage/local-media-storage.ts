// MediaStorage on the local disk (the default; `npm start` keeps it under .stack/media). Writes are atomic: bytes go
// to a temporary file beside the target and are renamed into place once complete, so a reader (or a crash) never sees
// half an object. The content type is kept beside the object, so a read answers with what was stored.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaStorage, StoredObject } from './media-storage.js';

/**
 * Storage keys are server-made: lowercase segments of [a-z0-9.-] joined by `/`, each starting with a letter or digit
 * (so never `.`, `..` or a temporary file), e.g. `teams/1/photos/<uuid>/original` and its `thumb.jpg`.
 */
const KEY_PATTERN = /^[a-z0-9][a-z0-9.-]*(\/[a-z0-9][a-z0-9.-]*)*$/;
/** Suffix of the file holding an object's content type. */
const CONTENT_TYPE_SUFFIX = '.content-type';
/** Prefix of in-flight temporary files (never a valid key segment, so never read as an object). */
const TEMP_PREFIX = '.tmp-';

export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {}

  async put(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${randomUUID()}`);
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
      await writeFile(`${target}${CONTENT_TYPE_SUFFIX}`, contentType);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { sizeBytes: (await stat(target)).size };
  }

  async get(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: string } | null> {
    const target = this.pathOf(key);
    let sizeBytes: number;
    try {
      sizeBytes = (await stat(target)).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const contentType = await readFile(`${target}${CONTENT_TYPE_SUFFIX}`, 'utf8').catch(() => 'application/octet-stream');
    return { body: createReadStream(target), sizeBytes, contentType };
  }

  async delete(key: string): Promise<void> {
    const target = this.pathOf(key);
    await rm(target, { force: true });
    await rm(`${target}${CONTENT_TYPE_SUFFIX}`, { force: true });
    // The object's own folder (`…/photos/<uuid>/`) goes with its last object; a folder still in use stays.
    await rmdir(path.dirname(target)).catch(() => undefined);
  }

  private pathOf(key: string): string {
    // A key ending like a content-type file would overwrite another object's.
    if (!KEY_PATTERN.test(key) || key.endsWith(CONTENT_TYPE_SUFFIX)) throw new Error(`LocalMediaStorage: not a storage key: ${JSON.stringify(key.slice(0, 200))}`);
    return path.join(this.root, ...key.split('/'));
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'ENOENT';
}
