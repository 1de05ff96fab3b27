// operationLoadRunner (@tributary/kit/bench): a closed loop of async operations — every operation gets its own
// sequence number, at most `connections` run at once, and one that throws is counted as an error (which makes the
// measurement invalid), not as a success. Counts only; no figure is asserted.
import { describe, expect, it } from '@jest/globals';
import { combineRuns, invalidReasons, operationLoadRunner } from '../src/bench/index.js';

describe('operationLoadRunner', () => {
  it('runs operations with unique sequence numbers, never more than `connections` at once', async () => {
    const seen: number[] = [];
    let running = 0;
    let most = 0;
    const runner = operationLoadRunner({
      label: 'ops',
      unit: 'ops/s',
      async operation(sequence) {
        running += 1;
        most = Math.max(most, running);
        seen.push(sequence);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
      },
    });
    await runner.check?.();
    const run = await runner.run(3, 1);
    expect(run.ok).toBe(seen.length - 1);
    expect(run.latenciesMs).toHaveLength(run.ok);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen[0]).toBe(0);
    expect(most).toBe(3);
    expect(run.errors).toBe(0);
    expect(runner.unit).toBe('ops/s');
  });

  it('counts an operation that throws as an error, so the measurement is invalid', async () => {
    const runner = operationLoadRunner({
      label: 'flaky',
      unit: 'ops/s',
      async operation(sequence) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (sequence % 2 === 1) throw new Error('refused');
      },
    });
    const run = await runner.run(2, 1);
    expect(run.errors).toBeGreaterThan(0);
    expect(run.ok).toBeGreaterThan(0);
    expect(invalidReasons(combineRuns('flaky', [run], 'ops/s'))).toEqual([expect.stringContaining('connection errors')]);
  });
});
