import { Migration } from '@mikro-orm/migrations';
import { parseAccountXpub, receiveKeyIdentity, testMnemonicAccountKeys, type ReceiveAsset } from '../modules/receive-addresses/index.js';

interface XpubRow {
  account_id: number;
  asset: ReceiveAsset;
  xpub: string;
  next_index: string | number;
}

/**
 * A receive address belongs to one payment request on its chain, and a receive key to one account.
 *
 * Before this, every account created without `--xpub` got the test mnemonic's account-0 keys, so accounts shared keys
 * and addresses. Existing data is sorted out in the same transaction as the schema change (tables locked meanwhile):
 * - keys: the account with the lowest id keeps a shared key (and owns it in `receive_key_owners`); its cursor moves
 *   past every index the other holders used, so it never derives an address they handed out. The others get, when
 *   the shared key is the test mnemonic's account-0 key, their own test keys (account n' for account id n, cursor 0:
 *   a key nobody used); a real key is removed from them (an operator registers their own; a warning names them).
 * - requests: `chain` is filled from the asset; requests that already share (chain, address) keep their address (a
 *   payer may have it) and are flagged `address_conflict`: the unique index on (chain, address) skips exactly those,
 *   and a payment to such an address is recorded by slug. New requests never collide.
 * Key identity and the test keys come from the receive-addresses module: BIP32 and the published test vector, which
 * do not change. `down()` removes the schema additions; keys given or removed here stay as they are.
 */
export class Migration20260701000800UniqueReceiveAddresses extends Migration {
  override async up(): Promise<void> {
    // No key is saved and no address allocated while keys are sorted out (reads go on).
    await this.execute(`lock table "account_xpubs", "payment_requests" in share row exclusive mode`);
    await this.execute(`create table "receive_key_owners" ("key_identity" varchar(64) not null, "account_id" int not null, "created_at" timestamptz not null, constraint "receive_key_owners_pkey" primary key ("key_identity"));`);
    await this.execute(`alter table "receive_key_owners" add constraint "receive_key_owners_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`);
    await this.giveEveryKeyOneOwner();

    await this.execute(`alter table "payment_requests" add "chain" text null, add "address_conflict" boolean not null default false;`);
    await this.execute(`update "payment_requests" set "chain" = "assets"."chain" from "assets" where "assets"."id" = "payment_requests"."asset_id";`);
    await this.execute(`alter table "payment_requests" alter column "chain" set not null;`);
    await this.execute(`alter table "payment_requests" add constraint "payment_requests_chain_check" check ("chain" in ('bitcoin', 'ethereum', 'litecoin', 'polygon'));`);
    await this.execute(
      `update "payment_requests" set "address_conflict" = true where ("chain", "address") in (select "chain", "address" from "payment_requests" group by "chain", "address" having count(*) > 1);`,
    );
    await this.execute(`create index "payment_requests_chain_address_index" on "payment_requests" ("chain", "address");`);
    await this.execute(`create unique index "payment_requests_chain_address_unique" on "payment_requests" ("chain", "address") where "address_conflict" = false;`);
  }

  override async down(): Promise<void> {
    await this.execute(`drop index "payment_requests_chain_address_unique";`);
    await this.execute(`drop index "payment_requests_chain_address_index";`);
    await this.execute(`alter table "payment_requests" drop constraint "payment_requests_chain_check";`);
    await this.execute(`alter table "payment_requests" drop column "chain", drop column "address_conflict";`);
    await this.execute(`drop table if exists "receive_key_owners" cascade;`);
  }

  private async giveEveryKeyOneOwner(): Promise<void> {
    const rows = (await this.execute(`select "account_id", "asset", "xpub", "next_index" from "account_xpubs" order by "account_id", "asset"`)) as XpubRow[];
    // Every deployment ran on the test networks when this migration was written.
    const identityOf = (asset: ReceiveAsset, xpub: string) => receiveKeyIdentity(parseAccountXpub('testnet', asset, xpub));
    const sharedTestKeys = new Set(Object.entries(testMnemonicAccountKeys(0)).map(([asset, xpub]) => identityOf(asset as ReceiveAsset, xpub)));
    // Rows come by account id, so the first holder of a key is the lowest id: it keeps the key.
    const owners = new Map<string, number>();
    const keyed = rows.map((row) => ({ ...row, nextIndex: Number(row.next_index), identity: identityOf(row.asset, row.xpub) }));
    for (const row of keyed) if (!owners.has(row.identity)) owners.set(row.identity, row.account_id);
    for (const [identity, accountId] of owners) await this.claim(identity, accountId);

    for (const row of keyed) {
      if (owners.get(row.identity) === row.account_id) {
        // The keeper continues after the highest index any holder of this key used for this asset.
        const used = Math.max(...keyed.filter((other) => other.identity === row.identity && other.asset === row.asset).map((other) => other.nextIndex));
        if (used > row.nextIndex) await this.execute(`update "account_xpubs" set "next_index" = ? where "account_id" = ? and "asset" = ?`, [used, row.account_id, row.asset]);
        continue;
      }
      const ownKey = sharedTestKeys.has(row.identity) ? testMnemonicAccountKeys(row.account_id)[row.asset] : undefined;
      const ownIdentity = ownKey === undefined ? undefined : identityOf(row.asset, ownKey);
      if (ownKey !== undefined && ownIdentity !== undefined && (owners.get(ownIdentity) ?? row.account_id) === row.account_id) {
        owners.set(ownIdentity, row.account_id);
        await this.claim(ownIdentity, row.account_id);
        await this.execute(`update "account_xpubs" set "xpub" = ?, "next_index" = 0, "updated_at" = now() where "account_id" = ? and "asset" = ?`, [ownKey, row.account_id, row.asset]);
        continue;
      }
      await this.execute(`delete from "account_xpubs" where "account_id" = ? and "asset" = ?`, [row.account_id, row.asset]);
      this.config.getLogger().warn(
        'migrator',
        `Account ${row.account_id} shared its ${row.asset} receive key with account ${owners.get(row.identity)}, which keeps it; the key was removed from account ${row.account_id}, so it cannot be paid in ${row.asset} until its own key is registered.`,
        { enabled: true },
      );
    }
  }

  private async claim(identity: string, accountId: number): Promise<void> {
    await this.execute(`insert into "receive_key_owners" ("key_identity", "account_id", "created_at") values (?, ?, now()) on conflict do nothing`, [identity, accountId]);
  }
}
