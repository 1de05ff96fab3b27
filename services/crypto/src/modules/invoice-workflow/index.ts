// Invoice expiry on Temporal: the workflow outbox commands the payment request domain enqueues (start, settled and
// cancelled signals) and the activities the workflow calls.
export { invoiceExpirySignal, invoiceExpiryStart, invoiceReopenedExpiryStart, invoiceWorkflowMetadata, type ExpiringInvoice } from './invoice-expiry.commands.js';
export { createInvoiceActivities, type InvoiceActivitiesDeps } from './invoice.activities.js';
