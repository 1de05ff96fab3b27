// Invoice expiry on Temporal: the scheduler port the payment request domain calls after commit, the workflow's
// activities, and the worker's sweeper for invoices whose workflow was never started.
export { createInvoiceActivities, type InvoiceActivitiesDeps } from './invoice.activities.js';
export { createInvoiceExpirySweeper, type InvoiceExpirySweeper, type InvoiceExpirySweeperOptions } from './invoice-expiry-sweeper.js';
export {
  createTemporalInvoiceScheduler,
  noInvoiceScheduler,
  type InvoiceExpiryScheduler,
  type ScheduledInvoice,
  type TemporalInvoiceSchedulerOptions,
} from './invoice-scheduler.js';
