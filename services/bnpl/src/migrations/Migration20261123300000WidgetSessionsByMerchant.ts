import { Migration } from '@mikro-orm/migrations';

/** The dashboard's recent widget sessions of a merchant (GraphQL BnplMerchant.sessions): newest first by merchant. */
export class Migration20261123300000WidgetSessionsByMerchant extends Migration {
  override up(): void {
    this.addSql(`create index "widget_sessions_merchant_id_created_at_index" on "widget_sessions" ("merchant_id", "created_at");`);
  }

  override down(): void {
    this.addSql(`drop index if exists "widget_sessions_merchant_id_created_at_index";`);
  }
}
