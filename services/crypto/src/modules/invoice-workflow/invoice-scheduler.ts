// The port through which the payment request domain tells the invoice expiry workflow about an invoice, always AFTER
// the transaction that changed it committed (a workflow never sees a row that was rolled back). Failures are logged,
// never thrown: the request is already stored, and a 500 would invite the merchant to create it again. A workflow
// that was never started is covered by the worker's expiry sweeper (invoice-expiry-sweeper.ts, README Decisions).
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from '@tributary/kit';
import { INVOICE_SIGNALS, TASK_QUEUES, WORKFLOW_TYPES, invoiceWorkflowId, type InvoiceExpiryWorkflow, type InvoiceSignalName } from '@tributary/workflows';

/** What the scheduler needs to know of a request. */
export interface ScheduledInvoice {
  id: number;
  slug: string;
  type: 'invoice' | 'donation';
  expiresAt?: Date | null | undefined;
  /** Shown to operators in the Temporal UI (invoiceWorkflowMetadata). */
  amountRequested?: { toString(): string } | null | undefined;
  asset?: { code: string } | undefined;
  account?: { id: number } | undefined;
}

export interface InvoiceExpiryScheduler {
  /** A request was created: starts the expiry workflow of an invoice (donations never expire). Idempotent. */
  invoiceCreated(request: ScheduledInvoice): Promise<void>;
  /** The invoice was paid in full: ends its workflow early. */
  invoiceSettled(slug: string): Promise<void>;
  /** The merchant cancelled it: ends its workflow early. */
  invoiceCancelled(slug: string): Promise<void>;
}

/** Schedules nothing (unit tests and tools without Temporal); the sweeper still expires overdue invoices. */
export const noInvoiceScheduler: InvoiceExpiryScheduler = {
  invoiceCreated: async () => {},
  invoiceSettled: async () => {},
  invoiceCancelled: async () => {},
};

export interface TemporalInvoiceSchedulerOptions {
  client: Client;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/**
 * What an operator sees for the invoice's workflow in the Temporal UI (user metadata, shown as the summary and the
 * details): the amount, asset and deadline. Never the title or reference, which are the merchant's text.
 */
export function invoiceWorkflowMetadata(request: ScheduledInvoice): { staticSummary: string; staticDetails: string } {
  const asset = request.asset?.code ?? '';
  const amount = request.amountRequested?.toString() ?? 'any amount';
  const expiresAt = request.expiresAt?.toISOString() ?? 'never';
  return {
    staticSummary: `Invoice ${request.slug}: ${amount} ${asset}, expires ${expiresAt}`,
    staticDetails: [`- payment request: ${request.id}${request.account ? ` (account ${request.account.id})` : ''}`, `- amount: ${amount} ${asset}`, `- expires at: ${expiresAt}`].join('\n'),
  };
}

/** The scheduler on Temporal: one `invoiceExpiryWorkflow` per invoice, id `invoice-<slug>`, on the crypto task queue. */
export function createTemporalInvoiceScheduler({ client, logger }: TemporalInvoiceSchedulerOptions): InvoiceExpiryScheduler {
  const signal = async (slug: string, name: InvoiceSignalName) => {
    const workflowId = invoiceWorkflowId(slug);
    try {
      await client.workflow.getHandle(workflowId).signal(name);
    } catch (error) {
      // Already finished (expired, or ended by an earlier signal) or never started: nothing left to stop.
      if (error instanceof WorkflowNotFoundError) return;
      logger?.error({ err: error, workflowId, signal: name }, 'could not signal the invoice expiry workflow');
    }
  };
  return {
    async invoiceCreated(request) {
      if (request.type !== 'invoice' || !request.expiresAt) return;
      const workflowId = invoiceWorkflowId(request.slug);
      try {
        await client.workflow.start<InvoiceExpiryWorkflow>(WORKFLOW_TYPES.invoiceExpiry, {
          workflowId,
          taskQueue: TASK_QUEUES.crypto,
          // One workflow per invoice, ever: a repeated start (retry, sweeper) is refused even after it finished.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          args: [{ paymentRequestId: request.id, slug: request.slug, expiresAt: request.expiresAt.toISOString() }],
          ...invoiceWorkflowMetadata(request),
        });
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return;
        logger?.error({ err: error, workflowId }, 'could not start the invoice expiry workflow (the expiry sweeper will expire it)');
      }
    },
    invoiceSettled: (slug) => signal(slug, INVOICE_SIGNALS.settled),
    invoiceCancelled: (slug) => signal(slug, INVOICE_SIGNALS.cancelled),
  };
}
