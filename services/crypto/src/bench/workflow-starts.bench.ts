// Benchmark `workflow-starts` (npm run bench -- workflow-starts): the start a create causes (crypto's invoice expiry
// workflow, `invoiceExpiryStart`, exactly as PaymentRequestService.create enqueues it) going through the kit's
// workflow outbox — enqueued in a committed transaction, dispatched after the commit, marked dispatched — until
// Temporal has accepted it, against a plain loop of `client.workflow.start` of the same command on the same Temporal
// server, at the same concurrency. Target (issue 13 §1): at least 0.7× the plain loop's starts per second. The plain
// loop's rate is the Temporal server's own ceiling on this machine (recorded in the README).
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { createWorkflowOutbox, enqueueWorkflowStart, loadConfig, serviceEnv, type WorkflowStartCommand } from '@tributary/kit';
import { benchLog, benchmarkResult, benchSettings, measureSideBySide, operationLoadRunner, runBenchmark, seededServiceDatabase, type Target } from '@tributary/kit/bench';
import { invoiceExpiryStart } from '../modules/invoice-workflow/index.js';
import { openDatabase } from '../service.js';

const NAME = 'workflow-starts';
const TARGET: Target = { minThroughputRatio: 0.7 };
const UNIT = 'starts/s';
/** An operation waits this long for Temporal to accept its start before it counts as an error. */
const ACCEPT_TIMEOUT_MS = 30_000;
/** The invoices' deadline: far away, so no expiry fires during the run (no crypto worker runs anyway). */
const EXPIRES_IN_MS = 24 * 60 * 60 * 1000;

/** Creation instants of this run's invoices, one per side: with the sequence they make every workflow id unique. */
const RUN_STARTED_MS = Date.now();
const SIDE_CREATED_AT = { outbox: new Date(RUN_STARTED_MS), plain: new Date(RUN_STARTED_MS + 1) } as const;

/** The start of invoice `sequence` of one side (unique workflow ids per side and run). */
function invoiceStart(side: keyof typeof SIDE_CREATED_AT, sequence: number): WorkflowStartCommand {
  return invoiceExpiryStart({ id: sequence + 1, createdAt: SIDE_CREATED_AT[side], expiresAt: new Date(Date.now() + EXPIRES_IN_MS) });
}

/** Resolves a start's promise when Temporal has accepted it (a client interceptor sees every start the outbox sends). */
function acceptedStarts() {
  const waiting = new Map<string, () => void>();
  const interceptor: WorkflowClientInterceptor = {
    async startWithDetails(input, next) {
      const output = await next(input);
      waiting.get(input.options.workflowId)?.();
      return output;
    },
  };
  return {
    interceptor,
    expect(workflowId: string): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      return new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${workflowId}: not started within ${ACCEPT_TIMEOUT_MS} ms`)), ACCEPT_TIMEOUT_MS);
        waiting.set(workflowId, resolve);
      }).finally(() => {
        clearTimeout(timer);
        waiting.delete(workflowId);
      });
    },
  };
}

runBenchmark(async () => {
  const settings = benchSettings();
  const temporal = loadConfig(serviceEnv.pick({ TEMPORAL_ADDRESS: true, TEMPORAL_NAMESPACE: true }), process.env);
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const { db } = await seededServiceDatabase('crypto');
    cleanup.unshift(() => db.drop());
    const orm = await openDatabase(db.url);
    cleanup.unshift(() => orm.close());
    const connection = await Connection.connect({ address: temporal.TEMPORAL_ADDRESS });
    cleanup.unshift(() => connection.close());
    const accepted = acceptedStarts();
    const outboxClient = new Client({ connection, namespace: temporal.TEMPORAL_NAMESPACE, interceptors: { workflow: [accepted.interceptor] } });
    const plainClient = new Client({ connection, namespace: temporal.TEMPORAL_NAMESPACE });
    const outbox = createWorkflowOutbox({ em: orm.em, client: outboxClient });
    cleanup.unshift(() => outbox.idle());
    benchLog(`Temporal ${temporal.TEMPORAL_ADDRESS}, outbox on ${db.url.replace(/\/\/[^@]*@/, '//')}`);

    const measured = await measureSideBySide(
      {
        ours: operationLoadRunner({
          label: 'outbox',
          unit: UNIT,
          async operation(sequence) {
            const command = invoiceStart('outbox', sequence);
            const started = accepted.expect(command.workflowId);
            const entry = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
            await outbox.dispatchAfterCommit([entry])?.();
            await started;
          },
        }),
        baseline: operationLoadRunner({
          label: 'client.workflow.start',
          unit: UNIT,
          async operation(sequence) {
            const { workflowType, workflowId, taskQueue, args, summary, details } = invoiceStart('plain', sequence);
            await plainClient.workflow.start(workflowType, {
              workflowId,
              taskQueue,
              args,
              workflowIdReusePolicy: 'REJECT_DUPLICATE',
              ...(summary ? { staticSummary: summary } : {}),
              ...(details ? { staticDetails: details } : {}),
            });
          },
        }),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: "crypto's invoice expiry start through the kit's workflow outbox (enqueue in a transaction, dispatch after commit) vs plain client.workflow.start",
      settings,
      measured,
      target: TARGET,
      notes: [
        'ours: per operation, a transaction inserting the outbox row (enqueueWorkflowStart with invoiceExpiryStart, as a crypto create does), then the after-commit dispatch; done when Temporal has accepted the start (a client interceptor); dispatch marks are written in batches meanwhile.',
        'baseline: client.workflow.start of the same type, task queue, arguments and metadata with REJECT_DUPLICATE, on the same connection to the same Temporal server: its rate is the dev server\'s ceiling at this concurrency.',
        'both run in the benchmark process; no worker polls the task queue (starts only); the Temporal dev server is in memory and shares the machine.',
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
