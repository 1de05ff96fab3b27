import { Migration } from '@mikro-orm/migrations';

/**
 * The spec's asset table with stable ids (the create body's asset_id): 1 BTC, 2 ETH, 3 LTC, 4 MATIC, confirmations at
 * the spec defaults. Values are written out here, not imported, so this migration never changes after it shipped.
 * Idempotent: the table is created only if missing and existing rows (e.g. raised confirmations) are left alone.
 */
export class Migration20260701000100CreateAssets extends Migration {
  override up(): void {
    this.addSql(`create table if not exists "assets" ("id" int not null, "code" text not null, "chain" text not null, "decimals" int not null, "confirmations" int not null, "updated_at" timestamptz not null, constraint "assets_pkey" primary key ("id"), constraint "assets_code_unique" unique ("code"), constraint "assets_code_check" check ("code" in ('BTC', 'ETH', 'LTC', 'MATIC')), constraint "assets_chain_check" check ("chain" in ('bitcoin', 'ethereum', 'litecoin', 'polygon')));`);
    this.addSql(`insert into "assets" ("id", "code", "chain", "decimals", "confirmations", "updated_at") values (1, 'BTC', 'bitcoin', 8, 2, now()), (2, 'ETH', 'ethereum', 18, 12, now()), (3, 'LTC', 'litecoin', 8, 6, now()), (4, 'MATIC', 'polygon', 18, 30, now()) on conflict ("id") do nothing;`);
  }

  override down(): void {
    this.addSql('drop table if exists "assets" cascade;');
  }
}
