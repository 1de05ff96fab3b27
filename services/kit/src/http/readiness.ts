// /readyz: every check runs concurrently with its own timeout, so one hung dependency cannot hang the probe.
import type { Logger } from 'pino';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export type CheckOutcome = 'ok' | 'failed' | 'timed_out';

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckOutcome>;
  failing?: string[];
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
  const failing = outcomes.filter(([, outcome]) => outcome !== 'ok').map(([name]) => name);
  const report: ReadinessReport = { status: failing.length === 0 ? 'ready' : 'not_ready', checks: Object.fromEntries(outcomes) };
  if (failing.length > 0) report.failing = failing;
  return report;
}
