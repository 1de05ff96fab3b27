import { Migration } from '@mikro-orm/migrations';

/** When each API key last authenticated a request (recorded at most once a minute per key), for key hygiene. */
export class Migration20260701000500AddApiKeyLastUsedAt extends Migration {
  override up(): void {
    this.addSql(`alter table "api_keys" add column "last_used_at" timestamptz null;`);
  }

  override down(): void {
    this.addSql(`alter table "api_keys" drop column "last_used_at";`);
  }
}
