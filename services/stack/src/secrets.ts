// Secrets the runner provisions for the services: SECRETS_ENCRYPTION_KEY, the AES-256-GCM key that encrypts webhook
// signing secrets at rest. `npm start` generates it once into .stack/secrets/encryption.key (mode 0600) and keeps it
// across restarts (the seeded signing secrets stay readable); `npm run reset` wipes it with the databases.
// `npm test` uses a fresh random key per run.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';

export function randomEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

function isValidKey(value: string): boolean {
  return Buffer.from(value, 'base64').length === 32 && Buffer.from(value, 'base64').toString('base64') === value;
}

/** The key in `file`, generated there first when missing. */
export function ensureEncryptionKey(file: string): string {
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (!isValidKey(key)) {
      throw new StackError(`${file} does not hold a 32-byte base64 key`, 'run `npm run reset` (wipes the local databases too) or delete the file together with .stack/postgres');
    }
    return key;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomEncryptionKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** The secret in `file` (one line), generated there first (mode 0600) when missing; for the --chains node's RPC password. */
export function ensureSecretFile(file: string, generate: () => string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return value;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}
