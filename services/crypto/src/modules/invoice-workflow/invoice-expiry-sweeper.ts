// Backstop of the invoice expiry workflow. The workflow is started after the create transaction commits; if the
// process dies between commit and start (or Temporal refused the start), no workflow exists for that invoice. Reads
// already report it `expired` (effectiveStatus) and a late payment applies the deadline first, but payment.expired
// would never be stored or sent. The sweeper, run by the crypto worker, closes that gap: every interval it expires
// pending/partial invoices whose deadline passed more than `graceMs` ago (the workflow normally did it already), through
// the same idempotent, row-locked PaymentRequestService.expireIfDue, so racing a workflow is harmless.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@tributary/kit';
import { PaymentRequest } from '../payment-requests/payment-request.entity.js';
import type { PaymentRequestService } from '../payment-requests/payment-request.service.js';

export interface InvoiceExpirySweeperOptions {
  em: EntityManager;
  /** A PaymentRequestService on a fresh EntityManager (with the service's event sink). */
  paymentRequests: () => PaymentRequestService;
  logger?: Pick<Logger, 'info' | 'error'>;
  /** How often to sweep. Default 60 s. */
  intervalMs?: number;
  /** Only invoices overdue by more than this (the workflow's job first). Default 2 min. */
  graceMs?: number;
  /** Invoices per sweep. Default 100. */
  batchSize?: number;
  now?: () => Date;
}

export interface InvoiceExpirySweeper {
  /** One pass; returns the ids it expired. */
  sweepOnce(): Promise<number[]>;
  /** Sweeps every interval until stop() (which waits for a running pass). */
  start(): { stop(): Promise<void> };
}

export function createInvoiceExpirySweeper(options: InvoiceExpirySweeperOptions): InvoiceExpirySweeper {
  const intervalMs = options.intervalMs ?? 60_000;
  const graceMs = options.graceMs ?? 120_000;
  const batchSize = options.batchSize ?? 100;
  const now = options.now ?? (() => new Date());

  async function sweepOnce(): Promise<number[]> {
    const cutoff = new Date(now().getTime() - graceMs);
    const overdue = await options.em.fork().find(
      PaymentRequest,
      { type: 'invoice', status: { $in: ['pending', 'partial'] }, expiresAt: { $lte: cutoff } },
      { fields: ['id'], orderBy: { expiresAt: 'asc', id: 'asc' }, limit: batchSize },
    );
    const expired: number[] = [];
    for (const { id } of overdue) {
      const { events } = await options.paymentRequests().expireIfDue(id);
      if (events.length > 0) expired.push(id);
    }
    if (expired.length > 0) options.logger?.info({ expired }, 'invoice expiry sweeper expired overdue invoices');
    return expired;
  }

  return {
    sweepOnce,
    start() {
      let running: Promise<unknown> = Promise.resolve();
      const timer = setInterval(() => {
        running = running.then(sweepOnce).catch((error: unknown) => options.logger?.error({ err: error }, 'invoice expiry sweep failed'));
      }, intervalMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}
