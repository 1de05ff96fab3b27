import { Migration } from '@mikro-orm/migrations';

/** Secret keys are stored as their SHA-256 digest (64 hex characters); legacy bcrypt hashes (60) still fit. */
export class Migration20261128000000ApiKeySecretDigest extends Migration {
  override up(): void {
    this.addSql(`alter table "api_keys" alter column "secret_key_hash" type varchar(64);`);
  }

  override down(): void {
    // A digest does not fit the old column; only a database without digests can go back.
    this.addSql(`alter table "api_keys" alter column "secret_key_hash" type varchar(60);`);
  }
}
