// The photo media workflow alone: the real workflow code on the time-skipping test server with its activities mocked,
// so success, a retried transient failure, media that can never be rendered and exhausted retries are checked without
// storage or a database. (services/photos' tests run the real activities on real media.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { PhotoMediaActivities, RecordPhotoMediaFailureInput, RenderPhotoMediaInput, RenderPhotoMediaResult } from '../src/activities.js';
import { TASK_QUEUES, WORKFLOW_TYPES, photoMediaWorkflowId } from '../src/constants.js';
import { startTimeSkippingEnvironment } from '../src/testing.js';
import type { PhotoMediaWorkflowResult } from '../src/types.js';
import { createServiceWorker } from '../src/worker.js';
import * as workflows from '../src/workflows/index.js';
import { PHOTO_MEDIA_RENDER_RETRY } from '../src/workflows/photo-media.js';

let env: TestWorkflowEnvironment;
let nextPhotoId = 1;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

const rendered: RenderPhotoMediaResult = { outcome: 'rendered', thumbKey: 'teams/1/photos/u/thumb.jpg', posterKey: null, durationSeconds: null };

/** Mocked activities: `render` answers each call in turn (the last answer repeats); calls of both are recorded. */
function mockActivities(render: Array<() => RenderPhotoMediaResult>) {
  const renderCalls: Array<{ input: RenderPhotoMediaInput; atMs: number }> = [];
  const failures: RecordPhotoMediaFailureInput[] = [];
  const activities: PhotoMediaActivities = {
    async renderPhotoMedia(input) {
      renderCalls.push({ input, atMs: await env.currentTimeMs() });
      return render[Math.min(renderCalls.length, render.length) - 1]!();
    },
    async recordPhotoMediaFailure(input) {
      failures.push(input);
    },
  };
  return { activities, renderCalls, failures };
}

async function run(activities: PhotoMediaActivities) {
  const worker = await createServiceWorker({ service: 'photos', connection: env.nativeConnection, namespace: env.namespace ?? 'default', activities });
  const photoId = nextPhotoId++;
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.photoMedia, {
    taskQueue: TASK_QUEUES.photos,
    workflowId: photoMediaWorkflowId(photoId),
    args: [{ photoId }],
  });
  const result = await worker.runUntil(handle.result() as Promise<PhotoMediaWorkflowResult>);
  return { photoId, result };
}

const transient = () => {
  throw new Error('storage unreachable');
};
const unrenderable = () => {
  throw ApplicationFailure.nonRetryable('image cannot be decoded: VipsJpeg: premature end of JPEG file', 'UnrenderableMediaError');
};

describe('photoMediaWorkflow with mocked activities', () => {
  it('is the registered type, with one workflow id per photo, on the photos queue', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.photoMedia]).toBe('function');
    expect(WORKFLOW_TYPES.photoMedia).toBe('photoMediaWorkflow');
    expect(photoMediaWorkflowId(42)).toBe('photo-media-42');
  });

  it('renders once and reports rendered; no failure is recorded', async () => {
    const mocked = mockActivities([() => rendered]);
    const { photoId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    expect(mocked.renderCalls.map((c) => c.input)).toEqual([{ photoId }]);
    expect(mocked.failures).toEqual([]);
  });

  it('a photo deleted before rendering ends as gone, without recording a failure', async () => {
    const mocked = mockActivities([() => ({ outcome: 'gone', thumbKey: null, posterKey: null, durationSeconds: null })]);
    expect((await run(mocked.activities)).result).toEqual({ outcome: 'gone', reason: null });
    expect(mocked.failures).toEqual([]);
  });

  it('retries a transient failure with backoff, then renders', async () => {
    const mocked = mockActivities([transient, transient, () => rendered]);
    const { result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'rendered', reason: null });
    expect(mocked.renderCalls).toHaveLength(3);
    const [first, second, third] = mocked.renderCalls.map((c) => c.atMs);
    // Backoff 2 s, then 4 s.
    expect(second! - first!).toBeGreaterThanOrEqual(2_000);
    expect(third! - second!).toBeGreaterThanOrEqual(4_000);
    expect(mocked.failures).toEqual([]);
  });

  it('media that can never be rendered fails at once (no retry) and is recorded as failed', async () => {
    const mocked = mockActivities([unrenderable, () => rendered]);
    const { photoId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'failed', reason: 'unrenderable' });
    expect(mocked.renderCalls).toHaveLength(1);
    expect(mocked.failures).toEqual([{ photoId, reason: 'unrenderable' }]);
  });

  it(`after ${PHOTO_MEDIA_RENDER_RETRY.maximumAttempts} failed attempts it gives up and records the failure`, async () => {
    const mocked = mockActivities([transient]);
    const { photoId, result } = await run(mocked.activities);
    expect(result).toEqual({ outcome: 'failed', reason: 'gave_up' });
    expect(mocked.renderCalls).toHaveLength(PHOTO_MEDIA_RENDER_RETRY.maximumAttempts);
    expect(mocked.failures).toEqual([{ photoId, reason: 'gave_up' }]);
  }, 120_000);
});
