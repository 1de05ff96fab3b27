import { Migration } from '@mikro-orm/migrations';

/**
 * The UTXO chain watcher (issue 12 §2): where each chain's block scan stands (`chain_cursors`, one row per chain), and
 * the block each payment it found is in, so its confirmations can be recounted as blocks arrive. Payments recorded by
 * the operator's `pay` command have no block.
 */
export class Migration20261125000200AddChainWatch extends Migration {
  override up(): void {
    this.addSql(`alter table "payments" add column "block_height" int null, add column "block_hash" varchar(128) null;`);
    this.addSql(`create table "chain_cursors" (
      "chain" text not null check ("chain" in ('bitcoin', 'ethereum', 'litecoin', 'polygon')),
      "network" text not null check ("network" in ('testnet', 'regtest', 'mainnet')),
      "height" int not null,
      "block_hash" varchar(128) not null,
      "tip_height" int not null,
      "last_error" text null,
      "updated_at" timestamptz not null,
      constraint "chain_cursors_pkey" primary key ("chain"));`);
  }

  override down(): void {
    this.addSql(`drop table "chain_cursors";`);
    this.addSql(`alter table "payments" drop column "block_height", drop column "block_hash";`);
  }
}
