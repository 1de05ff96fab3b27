import { Migration } from '@mikro-orm/migrations';

/**
 * Each account's webhook signing secret, encrypted at rest (AES-256-GCM, kit SecretBox, key SECRETS_ENCRYPTION_KEY):
 * HMAC needs the plaintext at send time, so it cannot be hashed. One current secret per account; rotation overwrites it.
 */
export class Migration20260701000300AddAccountSigningSecrets extends Migration {
  override up(): void {
    this.addSql(`alter table "accounts" add column "signing_secret_sealed" text null, add column "signing_secret_rotated_at" timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table "accounts" drop column "signing_secret_sealed", drop column "signing_secret_rotated_at";`);
  }
}
