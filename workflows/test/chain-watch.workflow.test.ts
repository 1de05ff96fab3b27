// The chain watch workflow alone, on the time-skipping test server with its activity mocked (crypto's tests run the
// real scan against litecoind): it waits between scans only once at the tip, keeps retrying a failing scan, and
// continues as new after its scans per run, with the same input.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ChainWatchActivities, ScanChainResult } from '../src/activities.js';
import { WORKFLOW_TYPES, chainWatchWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import { createServiceWorker } from '../src/worker.js';

const SECOND = 1_000;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** Answers in turn (the last repeats); a function answer may throw. Records each call's server time and run. */
function mockScans(answers: Array<ScanChainResult | (() => never)>) {
  const calls: Array<{ atMs: number; chain: string }> = [];
  const activities: ChainWatchActivities = {
    async scanChain(input) {
      calls.push({ atMs: await env.currentTimeMs(), chain: input.chain });
      const answer = answers[Math.min(calls.length, answers.length) - 1]!;
      return typeof answer === 'function' ? answer() : answer;
    },
  };
  return { activities, calls };
}

const atTip: ScanChainResult = { fromHeight: 10, toHeight: 12, tipHeight: 12, found: 0 };
const behind: ScanChainResult = { fromHeight: 10, toHeight: 110, tipHeight: 500, found: 1 };

async function run(chain: string, activities: ChainWatchActivities, scansPerRun: number, untilCalls: number, calls: unknown[]) {
  const worker = await createServiceWorker({ service: 'crypto', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.chainWatch, {
    taskQueue: 'crypto',
    workflowId: chainWatchWorkflowId(chain),
    args: [{ chain, pollIntervalMs: 10 * SECOND, scansPerRun }],
  });
  await worker.runUntil(async () => {
    while (calls.length < untilCalls) await env.sleep(SECOND);
  });
  return handle;
}

describe('chainWatchWorkflow with a mocked scan', () => {
  it('waits the poll interval between scans at the tip, and not while behind', async () => {
    const mocked = mockScans([behind, behind, atTip]);
    const handle = await run('litecoin', mocked.activities, 100, 5, mocked.calls);
    const gaps = mocked.calls.slice(1).map((call, i) => call.atMs - mocked.calls[i]!.atMs);
    expect(gaps[0]).toBeLessThan(10 * SECOND);
    expect(gaps[1]).toBeLessThan(10 * SECOND);
    expect(gaps[2]).toBeGreaterThanOrEqual(10 * SECOND);
    expect(mocked.calls.every((call) => call.chain === 'litecoin')).toBe(true);
    await handle.terminate();
  });

  it('a failing scan is retried with backoff until it succeeds', async () => {
    const down = (): never => {
      throw new Error('getblockcount: connect ECONNREFUSED');
    };
    const mocked = mockScans([down, down, down, atTip]);
    const handle = await run('bitcoin', mocked.activities, 100, 5, mocked.calls);
    const gaps = mocked.calls.slice(1, 4).map((call, i) => call.atMs - mocked.calls[i]!.atMs);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    await handle.terminate();
  });

  it('continues as new after its scans per run, with the same input', async () => {
    const mocked = mockScans([atTip]);
    const handle = await run('polygon', mocked.activities, 2, 5, mocked.calls);
    const firstRun = await env.client.workflow.getHandle(chainWatchWorkflowId('polygon'), handle.firstExecutionRunId).describe();
    expect(firstRun.status.name).toBe('CONTINUED_AS_NEW');
    const latest = env.client.workflow.getHandle(chainWatchWorkflowId('polygon'));
    const current = await latest.describe();
    expect([current.status.name, current.runId === handle.firstExecutionRunId]).toEqual(['RUNNING', false]);
    await latest.terminate();
  });
});
