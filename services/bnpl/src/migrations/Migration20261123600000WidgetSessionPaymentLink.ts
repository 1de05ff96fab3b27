import { Migration } from '@mikro-orm/migrations';

/** The payment link whose public page started a widget session (its use is counted when checkout books the loan). */
export class Migration20261123600000WidgetSessionPaymentLink extends Migration {
  override up(): void {
    this.addSql(`alter table "widget_sessions" add "payment_link_id" uuid null;`);
  }

  override down(): void {
    this.addSql(`alter table "widget_sessions" drop column if exists "payment_link_id";`);
  }
}
