import { Migration } from '@mikro-orm/migrations';

/**
 * Every payment request records the chain network it was made on (CRYPTO_NETWORK). Until now every deployment ran on
 * the test networks, so existing requests are `testnet`; new ones always name theirs (no default).
 */
export class Migration20261125000100AddPaymentRequestNetwork extends Migration {
  override up(): void {
    this.addSql(`alter table "payment_requests" add column "network" text check ("network" in ('testnet', 'regtest', 'mainnet')) not null default 'testnet';`);
    this.addSql(`alter table "payment_requests" alter column "network" drop default;`);
  }

  override down(): void {
    this.addSql(`alter table "payment_requests" drop column "network";`);
  }
}
