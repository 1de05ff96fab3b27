// Extended-key helpers for tests.
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);

/** Re-serializes an extended key under other version bytes (e.g. vpub -> tpub) — same key material. */
export const withVersion = (key: string, version: number): string => {
  const payload = base58check.decode(key);
  new DataView(payload.buffer, payload.byteOffset).setUint32(0, version);
  return base58check.encode(payload);
};
