/**
 * `@tributary/workflows/worker`: the one way a service starts its Temporal worker.
 * Uses the workflow bundle prebuilt by `npm run build` (dist/workflow-bundle.js) when present; otherwise
 * (running from TypeScript sources, e.g. in tests) bundles src/workflows once per process.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import type { NativeConnection, WorkerOptions, WorkflowBundleOption } from '@temporalio/worker';
import { TASK_QUEUES } from './constants.js';
import type { ServiceName } from './constants.js';

export interface CreateServiceWorkerOptions {
  service: ServiceName;
  connection: NativeConnection;
  /** Activity implementations (built by the service's factories); names must match the activity contracts. */
  activities: object;
  namespace?: string;
  /** Any further Worker options (concurrency limits, interceptors, identity...). */
  workerOptions?: Omit<WorkerOptions, 'connection' | 'namespace' | 'taskQueue' | 'activities' | 'workflowBundle' | 'workflowsPath'>;
}

export const PREBUILT_WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

let sourceBundle: Promise<WorkflowBundleOption> | undefined;

/** Path of the workflow entry point next to this module: `workflows/index.ts` in src, `workflows/index.js` in dist. */
export function workflowsEntryPath(): string {
  for (const candidate of ['./workflows/index.ts', './workflows/index.js']) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('@tributary/workflows: cannot find workflows/index next to worker module');
}

/** Bundles the workflow code with webpack; `.js` import specifiers resolve to `.ts` sources. */
export async function bundleWorkflows(): Promise<{ code: string }> {
  return bundleWorkflowCode({
    workflowsPath: workflowsEntryPath(),
    // webpack's module listing is logged at INFO; keep warnings and errors only.
    logger: new DefaultLogger('WARN'),
    webpackConfigHook: (config) => ({
      ...config,
      resolve: {
        ...config.resolve,
        extensionAlias: { '.js': ['.ts', '.js'] },
      },
    }),
  });
}

/** The prebuilt bundle when it exists, else a bundle made from source (memoized). */
export async function loadWorkflowBundle(): Promise<WorkflowBundleOption> {
  const prebuilt = fileURLToPath(new URL(`./${PREBUILT_WORKFLOW_BUNDLE_FILE}`, import.meta.url));
  if (existsSync(prebuilt)) return { codePath: prebuilt };
  sourceBundle ??= bundleWorkflows().then(({ code }) => ({ code }));
  return sourceBundle;
}

/** Creates (does not run) the worker of one service on its task queue. Call `worker.run()` or `worker.runUntil()`. */
export async function createServiceWorker(options: CreateServiceWorkerOptions): Promise<Worker> {
  const workflowBundle = await loadWorkflowBundle();
  return Worker.create({
    ...options.workerOptions,
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: TASK_QUEUES[options.service],
    activities: options.activities,
    workflowBundle,
  });
}
