// /readyz: every check runs concurrently with its own timeout, so one hung dependency cannot hang the probe.
import type { Logger } from 'pino';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
  /**
   * A dependency the service can serve without (e.g. a chain node a watcher reads): its outcome is reported and a
   * failure listed under `degraded`, but it never makes the service not ready (a load balancer would take away an
   * instance that can still take requests).
   */
  informational?: boolean;
}

export type CheckOutcome = 'ok' | 'failed' | 'timed_out';

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckOutcome>;
  failing?: string[];
  /** Informational checks that did not pass. */
  degraded?: string[];
}

class CheckTimeout extends Error {}

async function withTimeout(run: () => Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), timeoutMs);
  });
  try {
    // Promise.resolve().then() turns a synchronous throw in `run` into a rejection.
    await Promise.race([Promise.resolve().then(run), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runReadinessChecks(checks: readonly ReadinessCheck[], timeoutMs: number, logger: Logger): Promise<ReadinessReport> {
  const outcomes = await Promise.all(
    checks.map(async ({ name, check }): Promise<[string, CheckOutcome]> => {
      try {
        await withTimeout(check, timeoutMs);
        return [name, 'ok'];
      } catch (error) {
        const outcome: CheckOutcome = error instanceof CheckTimeout ? 'timed_out' : 'failed';
        // The reason goes to the log only: the probe is unauthenticated and must not expose internals.
        logger.warn({ check: name, outcome, err: error instanceof CheckTimeout ? undefined : error }, 'readiness check did not pass');
        return [name, outcome];
      }
    }),
  );
  const informational = new Set(checks.filter((c) => c.informational).map((c) => c.name));
  const notOk = outcomes.filter(([, outcome]) => outcome !== 'ok').map(([name]) => name);
  const failing = notOk.filter((name) => !informational.has(name));
  const degraded = notOk.filter((name) => informational.has(name));
  const report: ReadinessReport = { status: failing.length === 0 ? 'ready' : 'not_ready', checks: Object.fromEntries(outcomes) };
  if (failing.length > 0) report.failing = failing;
  if (degraded.length > 0) report.degraded = degraded;
  return report;
}
