import type { Logger } from '../logging/index.js';

/** Wait between attempts of a worker's start-up task while Temporal does not answer. */
export const START_TASK_RETRY_MS = 10_000;

/**
 * A worker's start-up task against Temporal (Schedules, long-running workflows), attempted now and again every 10 s
 * while it fails, so a worker started before Temporal still sets it up. Returned as a background loop (its `stop`
 * ends the retries), for a ServiceWorkerDefinition's `background`.
 */
export function retryUntilDone(what: string, task: () => Promise<void>, logger: Pick<Logger, 'warn'>): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = (): void => {
    task().catch((error: unknown) => {
      logger.warn({ err: error }, `could not ${what} yet; retrying in ${START_TASK_RETRY_MS / 1000} s`);
      if (!stopped) timer = setTimeout(attempt, START_TASK_RETRY_MS).unref();
    });
  };
  attempt();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
