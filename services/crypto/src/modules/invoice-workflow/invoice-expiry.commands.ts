// The commands the payment request domain gives the invoice expiry workflow, as workflow outbox entries enqueued in the
// transaction that changed the invoice (a workflow never hears of a row that was rolled back, and a command committed
// while Temporal is down is dispatched when it is back): start it when an invoice is created, end it early with the
// `settled` or `cancelled` signal. Donations never expire and get no workflow.
import type { WorkflowSignalCommand, WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, invoiceReopenedWorkflowId, invoiceWorkflowId, type InvoiceExpiryWorkflowInput, type InvoiceSignalName, type InvoiceWorkflowKey } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

/** What the commands need to know of an invoice. */
export interface ExpiringInvoice {
  /** The internal id: with createdAt it names the workflow (never the slug, which opens the payer view). */
  id: number;
  createdAt: Date;
  expiresAt: Date;
  /** Shown to operators in the Temporal UI. */
  amountRequested?: { toString(): string } | null | undefined;
  asset?: { code: string } | undefined;
  account?: { id: number } | undefined;
}

/**
 * What an operator sees for the invoice's workflow in the Temporal UI (its summary and details): the amount, asset and
 * deadline. Never the title or reference, which are the merchant's text.
 */
export function invoiceWorkflowMetadata(invoice: ExpiringInvoice): { summary: string; details: string } {
  const asset = invoice.asset?.code ?? '';
  const amount = invoice.amountRequested?.toString() ?? 'any amount';
  const expiresAt = invoice.expiresAt.toISOString();
  return {
    summary: `Invoice ${invoice.id}: ${amount} ${asset}, expires ${expiresAt}`,
    details: [`- payment request: ${invoice.id}${invoice.account ? ` (account ${invoice.account.id})` : ''}`, `- amount: ${amount} ${asset}`, `- expires at: ${expiresAt}`].join('\n'),
  };
}

/** Start of the invoice's expiry workflow, id `invoiceWorkflowId(invoice)`, on the crypto task queue: once per invoice, ever. */
export function invoiceExpiryStart(invoice: ExpiringInvoice): WorkflowStartCommand {
  const input: InvoiceExpiryWorkflowInput = { paymentRequestId: invoice.id, expiresAt: invoice.expiresAt.toISOString() };
  return {
    workflowType: WORKFLOW_TYPES.invoiceExpiry,
    workflowId: invoiceWorkflowId(invoice),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [input],
    ...invoiceWorkflowMetadata(invoice),
  };
}

/**
 * The expiry workflow again, for an invoice a reorg opened again within its deadline (README Decisions, "Reorg"):
 * the same workflow under its own id, so it runs once per reopening.
 */
export function invoiceReopenedExpiryStart(invoice: ExpiringInvoice, orphanedBlockHash: string): WorkflowStartCommand {
  return { ...invoiceExpiryStart(invoice), workflowId: invoiceReopenedWorkflowId(invoice, orphanedBlockHash) };
}

/**
 * Ends the workflow early: INVOICE_SIGNALS.settled (paid in full) or .cancelled (by the merchant); a workflow already
 * over ignores it. Sent to no older `invoice-<slug>` id: a lost signal is harmless (README Decisions, "Invoice expiry").
 */
export function invoiceExpirySignal(invoice: InvoiceWorkflowKey, signal: InvoiceSignalName): WorkflowSignalCommand {
  return { workflowId: invoiceWorkflowId(invoice), signal };
}
