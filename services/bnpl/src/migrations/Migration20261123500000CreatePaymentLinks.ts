import { Migration } from '@mikro-orm/migrations';

/** Payment links: permanent shareable URLs bound to a fixed price (deleted links are kept with deleted_at). */
export class Migration20261123500000CreatePaymentLinks extends Migration {
  override up(): void {
    this.addSql(`create table "payment_links" ("id" uuid not null, "merchant_id" uuid not null, "slug" varchar(32) not null, "title" varchar(191) not null, "amount_cents" int not null, "currency" varchar(3) not null, "max_uses" int null, "uses_count" int not null default 0, "environment" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "payment_links" add constraint "payment_links_slug_unique" unique ("slug");`);
    this.addSql(`create index "payment_links_merchant_id_created_at_index" on "payment_links" ("merchant_id", "created_at");`);
    this.addSql(`alter table "payment_links" add constraint "payment_links_merchant_id_foreign" foreign key ("merchant_id") references "merchants" ("id") on delete cascade;`);
    this.addSql(`alter table "payment_links" add constraint "payment_links_environment_check" check ("environment" in ('test', 'live'));`);
  }

  override down(): void {
    this.addSql('drop table if exists "payment_links" cascade;');
  }
}
