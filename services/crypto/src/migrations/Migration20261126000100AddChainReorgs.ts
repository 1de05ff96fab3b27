import { Migration } from '@mikro-orm/migrations';

/**
 * Reorgs (issue 12 §2): the blocks each chain's scan read lately (`scanned_blocks`, so the scan can find where a
 * reorg forked from its own record), and payments whose block left the chain (`orphaned_at`, the block's hash kept).
 */
export class Migration20261126000100AddChainReorgs extends Migration {
  override up(): void {
    this.addSql(`alter table "payments" add column "orphaned_at" timestamptz null, add column "orphaned_block_hash" varchar(128) null;`);
    this.addSql(`create index "payments_chain_block_height_index" on "payments" ("chain", "block_height");`);
    this.addSql(`create table "scanned_blocks" (
      "chain" text not null check ("chain" in ('bitcoin', 'ethereum', 'litecoin', 'polygon')),
      "height" int not null,
      "hash" varchar(128) not null,
      constraint "scanned_blocks_pkey" primary key ("chain", "height"));`);
  }

  override down(): void {
    this.addSql(`drop table "scanned_blocks";`);
    this.addSql(`drop index "payments_chain_block_height_index";`);
    this.addSql(`alter table "payments" drop column "orphaned_at", drop column "orphaned_block_hash";`);
  }
}
