// The Temporal Schedules that cut settlements: one per cadence (`settlement-cycle-<cadence>`), each starting the cycle
// workflow for every merchant on that cadence, 00:15 UTC (a quarter of an hour after the period closed, so sales funded
// in its last seconds are committed): daily every day, weekly on Mondays, monthly on the 1st. One Schedule per cadence,
// not per merchant: a cadence change is a column update, and the Temporal UI shows three schedules, not thousands.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type CalendarSpec, type Client } from '@temporalio/client';
import type { Logger } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, settlementScheduleId, type SettlementCycleWorkflowInput } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';
import type { SettlementCadence } from '../merchants/index.js';

const AT = { hour: 0, minute: 15 } as const;

export const SETTLEMENT_SCHEDULE_CALENDARS: Record<SettlementCadence, CalendarSpec> = {
  daily: { ...AT, comment: 'every day at 00:15 UTC' },
  weekly: { ...AT, dayOfWeek: 'MONDAY', comment: 'Mondays at 00:15 UTC' },
  monthly: { ...AT, dayOfMonth: 1, comment: 'the 1st of the month at 00:15 UTC' },
};

/**
 * Creates the three schedules, or leaves them as they are when they exist (idempotent at every worker start). A fire
 * missed while Temporal was down is taken within a day; a fire while the previous run is still going waits for it.
 */
export async function ensureSettlementSchedules(client: Client, logger?: Logger): Promise<void> {
  for (const [cadence, calendar] of Object.entries(SETTLEMENT_SCHEDULE_CALENDARS) as Array<[SettlementCadence, CalendarSpec]>) {
    const input: SettlementCycleWorkflowInput = { cadence };
    try {
      await client.schedule.create({
        scheduleId: settlementScheduleId(cadence),
        spec: { calendars: [calendar] },
        action: { type: 'startWorkflow', workflowType: WORKFLOW_TYPES.settlementCycle, taskQueue: TASK_QUEUES[SERVICE_NAME], workflowId: settlementScheduleId(cadence), args: [input] },
        policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '1 day' },
        memo: { description: `Cuts the settlements of every ${cadence} merchant` },
      });
      logger?.info({ scheduleId: settlementScheduleId(cadence) }, 'settlement schedule created');
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
  }
}
