// Secrets the services must read back (webhook signing secrets: HMAC needs the plaintext at send time, so they cannot
// be hashed) are stored encrypted at rest: AES-256-GCM with a 32-byte key held outside the database.
// Sealed form: `v1.<iv>.<ciphertext>.<tag>` (base64url, 12-byte random IV per seal, 16-byte tag). An optional
// associated-data string binds a value to its place (e.g. `account:7:signing-secret`), so a ciphertext copied to
// another row does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that does not open: tampered, truncated, another key, or other associated data. Never says which. */
export class SecretBoxError extends Error {
  constructor(message = 'sealed secret cannot be opened (wrong key, tampered or malformed)') {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** A new random key as base64 (the form SECRETS_ENCRYPTION_KEY takes). */
export function generateSecretBoxKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/**
 * Decodes a base64 key of exactly 32 bytes; throws an Error naming `variable` otherwise (strict: the base64 must
 * round-trip, so a truncated or mistyped key is refused rather than silently padded).
 */
export function decodeSecretBoxKey(value: string, variable = 'SECRETS_ENCRYPTION_KEY'): Buffer {
  const trimmed = value.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES || key.toString('base64') !== trimmed) {
    throw new Error(`${variable} must be ${KEY_BYTES} bytes encoded as base64 (44 characters), e.g. from \`openssl rand -base64 32\``);
  }
  return key;
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer | Uint8Array) {
    if (key.length !== KEY_BYTES) throw new Error(`SecretBox key must be ${KEY_BYTES} bytes (got ${key.length})`);
    this.#key = Buffer.from(key);
  }

  static fromBase64(value: string, variable?: string): SecretBox {
    return new SecretBox(decodeSecretBoxKey(value, variable));
  }

  /** Encrypts `plaintext` (UTF-8) under a fresh random IV; `context` is authenticated but not stored. */
  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** Decrypts a value from `seal` with the same `context`; throws SecretBoxError when it does not authenticate. */
  open(sealed: string, context = ''): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('sealed secret is malformed');
    const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('sealed secret is malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError();
    }
  }

  /** Never print the key. */
  toJSON(): string {
    return '[SecretBox]';
  }
}
