// Load that is not one HTTP request: a closed loop of async operations (a workflow start, a transaction), `connections`
// of them in flight, each starting its next as soon as the previous one settles, for a fixed time. An operation that
// throws is counted as an error (the measurement is then invalid), never retried.
import type { LoadRunner } from './side-by-side.js';
import type { RawRun } from './stats.js';

export interface OperationLoad {
  label: string;
  /** Unit of throughput, e.g. 'starts/s'. */
  unit: string;
  /** One operation; `sequence` counts from 0 across the load's runs, so each can be unique. */
  operation(sequence: number): Promise<void>;
  /** Processes whose CPU time each run counts. */
  pids?: number[];
}

export function operationLoadRunner(load: OperationLoad): LoadRunner {
  let sequence = 0;
  return {
    label: load.label,
    unit: load.unit,
    ...(load.pids ? { pids: load.pids } : {}),
    check: () => load.operation(sequence++),
    async run(connections, seconds) {
      const latenciesMs: number[] = [];
      let errors = 0;
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const loop = async (): Promise<void> => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          try {
            await load.operation(sequence++);
            latenciesMs.push(performance.now() - t0);
          } catch {
            errors += 1;
          }
        }
      };
      await Promise.all(Array.from({ length: connections }, loop));
      return { ok: latenciesMs.length, seconds: (performance.now() - started) / 1000, latenciesMs, statusCodes: {}, errors, timeouts: 0 } satisfies RawRun;
    },
  };
}
