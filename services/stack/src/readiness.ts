// Readiness: every /readyz answers 200, every worker polls its task queue. A timeout names what is
// stuck and where its log is; a process that dies while we wait fails at once.
import { StackError } from './errors.js';
import type { ManagedProcess } from './supervisor.js';

export interface ReadinessCheck {
  name: string;
  proc?: ManagedProcess;
  /** Resolves true when ready; false or a rejection means "not yet". */
  probe: () => Promise<boolean>;
}

export async function httpOk(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function waitUntilReady(checks: ReadinessCheck[], timeoutMs: number, intervalMs = 300): Promise<void> {
  const pending = new Set(checks);
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0) {
    for (const check of pending) {
      if (check.proc && !check.proc.running) {
        const exit = await check.proc.exited;
        const tail = check.proc.tail(15);
        throw new StackError(
          `${check.name} exited before it was ready (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})${
            tail ? `:\n${tail.replace(/^/gm, '    ')}` : ''
          }`,
          `read ${check.proc.logFile}`,
          check.proc.logFile,
        );
      }
    }
    const results = await Promise.all([...pending].map(async (c) => [c, await c.probe().catch(() => false)] as const));
    for (const [check, ok] of results) if (ok) pending.delete(check);
    if (pending.size === 0) return;
    if (Date.now() > deadline) {
      const stuck = [...pending];
      throw new StackError(
        `not ready after ${Math.round(timeoutMs / 1000)}s: ${stuck.map((c) => c.name).join(', ')}`,
        `read ${stuck.map((c) => c.proc?.logFile ?? '(no log)').join(', ')} (READY_TIMEOUT raises the limit)`,
        stuck[0]?.proc?.logFile,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** True when a worker started at or after `since` polls the workflow task queue. */
export async function workerPolling(address: string, namespace: string, taskQueue: string, since: number): Promise<boolean> {
  const { Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address, connectTimeout: 2000 });
  try {
    const response = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    return (response.pollers ?? []).some((poller) => {
      const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
      return seconds * 1000 >= since - 2000;
    });
  } finally {
    await connection.close();
  }
}
