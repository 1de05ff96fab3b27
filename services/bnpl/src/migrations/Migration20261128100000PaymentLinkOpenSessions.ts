import { Migration } from '@mikro-orm/migrations';

/** The open sessions a payment link started, counted before each new start (the link's cap of open sessions). */
export class Migration20261128100000PaymentLinkOpenSessions extends Migration {
  override up(): void {
    this.addSql(
      `create index "widget_sessions_open_by_payment_link" on "widget_sessions" ("payment_link_id", "expires_at") where "payment_link_id" is not null and "status" in ('initialized', 'eligible', 'ineligible');`,
    );
  }

  override down(): void {
    this.addSql(`drop index if exists "widget_sessions_open_by_payment_link";`);
  }
}
