// The photos report workflow alone: the real workflow code on the time-skipping test server with its activities mocked,
// so success, a retried transient failure, a photo that can never be read and exhausted retries are checked without
// storage or a database. (services/photos' tests/reports.test.ts runs the real activities on real photos.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { PhotosReportActivities, RecordPhotosReportFailureInput, RenderPhotosReportInput, RenderPhotosReportResult } from '../src/activities.js';
import { TASK_QUEUES, WORKFLOW_TYPES, photosReportWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { PhotosReportWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';
import * as workflows from '../src/workflows/index.js';
import { PHOTOS_REPORT_RENDER_RETRY, REPORT_GAVE_UP_MESSAGE } from '../src/workflows/photos-report.js';

let env: TestWorkflowEnvironment;
let nextReportId = 1;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

const rendered: RenderPhotosReportResult = { outcome: 'rendered', pdfSha256: 'a'.repeat(64), pageCount: 5 };

/** Mocked activities: `render` answers each call in turn (the last answer repeats); calls of both are recorded. */
function mockActivities(render: Array<() => RenderPhotosReportResult>) {
  const renderCalls: Array<{ input: RenderPhotosReportInput; atMs: number }> = [];
  const failures: RecordPhotosReportFailureInput[] = [];
  const activities: PhotosReportActivities = {
    async renderPhotosReport(input) {
      renderCalls.push({ input, atMs: await env.currentTimeMs() });
      return render[Math.min(renderCalls.length, render.length) - 1]!();
    },
    async recordPhotosReportFailure(input) {
      failures.push(input);
    },
  };
  return { activities, renderCalls, failures };
}

async function run(activities: PhotosReportActivities) {
  const worker = await createServiceWorker({ service: 'photos', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const reportId = nextReportId++;
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.photosReport, {
    taskQueue: TASK_QUEUES.photos,
    workflowId: photosReportWorkflowId(reportId),
    args: [{ reportId }],
  });
  const result = await worker.runUntil(handle.result() as Promise<PhotosReportWorkflowResult>);
  return { reportId, result };
}

const transient = () => {
  throw new Error('storage unreachable');
};
const missingOriginal = () => {
  throw ApplicationFailure.nonRetryable('The original of photo 7 is missing from storage.', 'UnrenderableReportMedia');
};

describe('photosReportWorkflow with mocked activities', () => {
  it('is the registered type, with one workflow id per report (report-<id>), on the photos queue', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.photosReport]).toBe('function');
    expect(photosReportWorkflowId(42)).toBe('report-42');
    expect(() => photosReportWorkflowId(0)).toThrow('positive integer');
  });

  it('renders once and reports rendered; no failure is recorded', async () => {
    const mocked = mockActivities([() => rendered]);
    const { reportId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    expect(mocked.renderCalls.map((c) => c.input)).toEqual([{ reportId }]);
    expect(mocked.failures).toEqual([]);
  });

  it('a report deleted before rendering ends as gone, without recording a failure', async () => {
    const mocked = mockActivities([() => ({ outcome: 'gone', pdfSha256: null, pageCount: null })]);
    expect((await run(mocked.activities)).result).toEqual({ outcome: 'gone', reason: null });
    expect(mocked.failures).toEqual([]);
  });

  it('retries a transient failure with backoff, then renders', async () => {
    const mocked = mockActivities([transient, transient, () => rendered]);
    const { result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    const [first, second, third] = mocked.renderCalls.map((c) => c.atMs);
    expect(mocked.renderCalls).toHaveLength(3);
    expect(second! - first!).toBeGreaterThanOrEqual(2_000);
    expect(third! - second!).toBeGreaterThanOrEqual(4_000);
    expect(mocked.failures).toEqual([]);
  });

  it('a photo that can never be read fails at once (no retry), recorded with the activity\'s message', async () => {
    const mocked = mockActivities([missingOriginal, () => rendered]);
    const { reportId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable_media' });
    expect(mocked.renderCalls).toHaveLength(1);
    expect(mocked.failures).toEqual([{ reportId, reason: 'unrenderable_media', message: 'The original of photo 7 is missing from storage.' }]);
  });

  it(`after ${PHOTOS_REPORT_RENDER_RETRY.maximumAttempts} failed attempts it gives up and records the failure`, async () => {
    const mocked = mockActivities([transient]);
    const { reportId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'failed', reason: 'gave_up' });
    expect(mocked.renderCalls).toHaveLength(PHOTOS_REPORT_RENDER_RETRY.maximumAttempts);
    expect(mocked.failures).toEqual([{ reportId, reason: 'gave_up', message: REPORT_GAVE_UP_MESSAGE }]);
  }, 120_000);
});
