// The settlement workflows alone: the real workflow code on the time-skipping test server with the activities mocked
// (bnpl's tests run the payout end to end with the real activities, database and worker).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { CutSettlementsInput, SettlementActivities } from '../src/activities.js';
import { TASK_QUEUES, WORKFLOW_TYPES, settlementScheduleId, settlementWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { SettlementCycleWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

function mocked(merchants: Record<string, string[]>) {
  const cuts: CutSettlementsInput[] = [];
  const paid: string[] = [];
  const activities: SettlementActivities = {
    async merchantsOnCadence({ cadence }) {
      return merchants[cadence] ?? [];
    },
    async cutSettlements(input) {
      cuts.push(input);
      return { settlementIds: [`s-${input.merchantId}`] };
    },
    async payOutSettlement({ settlementId }) {
      paid.push(settlementId);
      return { status: 'paid' };
    },
  };
  return { activities, cuts, paid };
}

async function worker(activities: SettlementActivities) {
  return createServiceWorker({ service: 'bnpl', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
}

describe('settlement workflows with mocked activities', () => {
  it('ids: settlement-<id> and the schedules settlement-cycle-<cadence>', () => {
    expect(settlementWorkflowId('abc')).toBe('settlement-abc');
    expect(settlementScheduleId('weekly')).toBe('settlement-cycle-weekly');
    expect(() => settlementWorkflowId('')).toThrow(/must not be empty/);
  });

  it('a cycle cuts every merchant on its cadence at the workflow time of the run', async () => {
    const mock = mocked({ weekly: ['m1', 'm2'], daily: ['m3'] });
    const w = await worker(mock.activities);
    const startedAt = await env.currentTimeMs();
    const handle = await env.client.workflow.start(WORKFLOW_TYPES.settlementCycle, { taskQueue: TASK_QUEUES.bnpl, workflowId: `${settlementScheduleId('weekly')}-${crypto.randomUUID()}`, args: [{ cadence: 'weekly' }] });
    const result = (await w.runUntil(handle.result())) as SettlementCycleWorkflowResult;
    expect(result).toEqual({ merchants: 2, settlementIds: ['s-m1', 's-m2'] });
    expect(mock.cuts.map((cut) => cut.merchantId)).toEqual(['m1', 'm2']);
    expect(mock.cuts[0]!.at).toBe(mock.cuts[1]!.at);
    expect(Math.abs(Date.parse(mock.cuts[0]!.at) - startedAt)).toBeLessThan(60_000);
  });

  it('a cycle with no merchant on the cadence cuts nothing', async () => {
    const mock = mocked({});
    const w = await worker(mock.activities);
    const handle = await env.client.workflow.start(WORKFLOW_TYPES.settlementCycle, { taskQueue: TASK_QUEUES.bnpl, workflowId: `${settlementScheduleId('monthly')}-${crypto.randomUUID()}`, args: [{ cadence: 'monthly' }] });
    expect(await w.runUntil(handle.result())).toEqual({ merchants: 0, settlementIds: [] });
    expect(mock.cuts).toEqual([]);
  });

  it('the payout workflow pays its batch', async () => {
    const mock = mocked({});
    const w = await worker(mock.activities);
    const handle = await env.client.workflow.start(WORKFLOW_TYPES.settlementPayout, { taskQueue: TASK_QUEUES.bnpl, workflowId: settlementWorkflowId('b1'), args: [{ settlementId: 'b1' }] });
    expect(await w.runUntil(handle.result())).toEqual({ status: 'paid' });
    expect(mock.paid).toEqual(['b1']);
  });
});
