// Activities of the settlement workflows (contract: SettlementActivities in @tributary/workflows), from a factory with
// the settlement domain injected (SettlementService), shared by the worker and the tests.
import { NotFoundError } from '@tributary/kit';
import type { SettlementActivities } from '@tributary/workflows';
import { SETTLEMENT_CADENCES, type SettlementCadence } from '../merchants/index.js';
import type { SettlementService } from './settlement.service.js';

export function createSettlementActivities({ settlements }: { settlements: SettlementService }): SettlementActivities {
  return {
    async merchantsOnCadence({ cadence }) {
      if (!(SETTLEMENT_CADENCES as readonly string[]).includes(cadence)) return [];
      return settlements.merchantsOnCadence(cadence as SettlementCadence);
    },
    async cutSettlements({ merchantId, at }) {
      try {
        return { settlementIds: (await settlements.cut(merchantId, new Date(at))).map((settlement) => settlement.id) };
      } catch (error) {
        // The merchant was deleted between the listing and its cut: nothing to settle.
        if (error instanceof NotFoundError) return { settlementIds: [] };
        throw error;
      }
    },
    async payOutSettlement({ settlementId }) {
      try {
        return { status: (await settlements.payOut(settlementId)).status };
      } catch (error) {
        if (error instanceof NotFoundError) return { status: 'not_found' };
        throw error;
      }
    },
  };
}
