import { Migration } from '@mikro-orm/migrations';
import type { HDKey } from '@scure/bip32';
import { addressFromPublicKey, parseAccountXpub, type ChainNetwork, type ReceiveAsset } from '../modules/receive-addresses/index.js';

interface XpubRow {
  account_id: number;
  asset: ReceiveAsset;
  xpub: string;
}

interface RequestRow {
  address_index: string | number;
  address: string;
  network: ChainNetwork;
}

/**
 * Gap-limit telemetry (issue 12 §5) counts only the addresses of an account's CURRENT key, because that key's wallet
 * sees nothing else. `account_xpubs.key_first_index` says where the current key's requests start (a replaced key
 * keeps the cursor, so the new key's first request is not index 0). For existing rows it is found by derivation: the
 * account's requests of the asset are read from the highest index down, and the current key starts just above the
 * first one whose address it does not derive (0 when it derives them all). Plus the index the telemetry reads
 * backwards: (account_id, asset_id, address_index).
 */
export class Migration20261126000300AddReceiveKeyFirstIndex extends Migration {
  override async up(): Promise<void> {
    // No key is replaced and no address allocated while the boundaries are found (reads go on).
    await this.execute(`lock table "account_xpubs", "payment_requests" in share row exclusive mode`);
    await this.execute(`alter table "account_xpubs" add column "key_first_index" bigint not null default '0';`);
    const keys = (await this.execute(`select "account_id", "asset", "xpub" from "account_xpubs" order by "account_id", "asset"`)) as XpubRow[];
    for (const key of keys) {
      const first = await this.firstIndexOf(key);
      if (first > 0) await this.execute(`update "account_xpubs" set "key_first_index" = ? where "account_id" = ? and "asset" = ?`, [first, key.account_id, key.asset]);
    }
    await this.execute(`create index "payment_requests_account_id_asset_id_address_index_index" on "payment_requests" ("account_id", "asset_id", "address_index");`);
  }

  override async down(): Promise<void> {
    await this.execute(`drop index "payment_requests_account_id_asset_id_address_index_index";`);
    await this.execute(`alter table "account_xpubs" drop column "key_first_index";`);
  }

  /** The lowest index from which every request of (account, asset) has the address the current key derives. */
  private async firstIndexOf(key: XpubRow): Promise<number> {
    const requests = (await this.execute(
      `select r."address_index", r."address", r."network" from "payment_requests" r join "assets" a on a."id" = r."asset_id"
       where r."account_id" = ? and a."code" = ? order by r."address_index" desc`,
      [key.account_id, key.asset],
    )) as RequestRow[];
    // The key parsed per network (a request records its own); null when the key cannot be used there (other family).
    const external = new Map<ChainNetwork, HDKey | null>();
    const externalOn = (network: ChainNetwork): HDKey | null => {
      if (!external.has(network)) {
        try {
          external.set(network, parseAccountXpub(network, key.asset, key.xpub).deriveChild(0));
        } catch {
          external.set(network, null);
        }
      }
      return external.get(network) ?? null;
    };
    for (const request of requests) {
      const index = Number(request.address_index);
      const chain = externalOn(request.network);
      const derived = chain === null ? undefined : addressFromPublicKey(request.network, key.asset, chain.deriveChild(index).publicKey!);
      if (derived !== request.address) return index + 1;
    }
    return 0;
  }
}
