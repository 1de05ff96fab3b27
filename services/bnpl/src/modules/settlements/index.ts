// Settlements (spec "Settlement (payout)"): batches cut per merchant, period, currency and mode by the per-cadence
// Schedules, each paid out by its workflow `settlement-<id>`.
import { SettlementAdjustmentSchema, SettlementLineSchema, SettlementSchema } from './settlement.entity.js';

export { SETTLEMENT_LINE_KINDS, Settlement, SettlementAdjustment, SettlementAdjustmentSchema, SettlementLine, SettlementLineSchema, SettlementSchema, type SettlementLineKind } from './settlement.entity.js';
export { SettlementRepository } from './settlement.repository.js';
export { SETTLEMENT_STATUSES, applyPayout, batchName, closedPeriod, periodBounds, saleMdrCents, settlementNet, type SettlementPeriod, type SettlementStatus } from './settlement-period.js';
export {
  SETTLEMENTS_PAGE_DEFAULT,
  SETTLEMENTS_PAGE_MAX,
  SettlementService,
  settlementProcessedData,
  type SettlementEventSink,
  type SettlementProcessedData,
  type SettlementServiceOptions,
  type SettlementWithLines,
} from './settlement.service.js';
export { presentSettlement, presentSettlementWithLines } from './settlement.presenter.js';
export { settlementApi, settlementResource, settlementDetailResource } from './settlement.openapi.js';
export { settlementRoutes } from './settlement.routes.js';
export { settlementResolvers } from './settlement.resolvers.js';
export { createSettlementActivities } from './settlement.activities.js';
export { SETTLEMENT_SCHEDULE_CALENDARS, ensureSettlementSchedules } from './settlement-schedules.js';

export const settlementEntities = [SettlementSchema, SettlementAdjustmentSchema, SettlementLineSchema];
