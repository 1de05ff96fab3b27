// Gap-limit telemetry per (account, asset): one SQL statement over account_xpubs, payment_requests and payments; the
// arithmetic and the advice are gap-limit.ts's.
import type { EntityManager } from '@mikro-orm/core';
import { NotFoundError } from '@tributary/kit';
import { DEFAULT_GAP_LIMIT, receiveAddressGap, type ReceiveAddressGap } from './gap-limit.js';
import type { ReceiveAsset } from './derivation.js';

interface GapRow {
  asset: ReceiveAsset | null;
  highest_derived_index: string | number | null;
  highest_used_index: string | number | null;
}

/**
 * For every key of the account: the highest index handed out with the CURRENT key and the highest one whose address
 * received any payment (counted or not), both among indices >= key_first_index (the key's own requests; a replaced
 * key's addresses are not in its wallet). Both are backwards scans of the index (account_id, asset_id, address_index):
 * the first stops at its first row, the second walks back over the unused run checking each row's payments through
 * payments_payment_request_id_index, so neither reads the account's older requests. The accounts row comes along so
 * an unknown account is told apart from one without keys.
 */
export const RECEIVE_ADDRESS_GAPS_SQL = `
  select x."asset",
    (select r."address_index" from "payment_requests" r
      where r."account_id" = x."account_id" and r."asset_id" = a."id" and r."address_index" >= x."key_first_index"
      order by r."address_index" desc limit 1) as "highest_derived_index",
    (select r."address_index" from "payment_requests" r
      where r."account_id" = x."account_id" and r."asset_id" = a."id" and r."address_index" >= x."key_first_index"
        and exists (select 1 from "payments" p where p."payment_request_id" = r."id")
      order by r."address_index" desc limit 1) as "highest_used_index"
  from "accounts" ac
  left join "account_xpubs" x on x."account_id" = ac."id"
  left join "assets" a on a."code" = x."asset"
  where ac."id" = ?
  order by x."asset"`;

const indexOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));

export class ReceiveAddressGapService {
  constructor(
    private readonly em: EntityManager,
    /** CRYPTO_GAP_LIMIT. */
    private readonly gapLimit: number = DEFAULT_GAP_LIMIT,
  ) {}

  /** One entry per asset the account has a key for, by asset code; NotFoundError for an unknown account. */
  async forAccount(accountId: number): Promise<ReceiveAddressGap[]> {
    const rows: GapRow[] = await this.em.getConnection().execute<GapRow[]>(RECEIVE_ADDRESS_GAPS_SQL, [accountId], 'all', this.em.getTransactionContext());
    if (rows.length === 0) throw new NotFoundError(`No account with id ${accountId}.`);
    return rows
      .filter((row): row is GapRow & { asset: ReceiveAsset } => row.asset !== null)
      .map((row) => receiveAddressGap(row.asset, { highestDerivedIndex: indexOrNull(row.highest_derived_index), highestUsedIndex: indexOrNull(row.highest_used_index) }, this.gapLimit));
  }
}
