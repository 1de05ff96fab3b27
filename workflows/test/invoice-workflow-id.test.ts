import { describe, expect, it } from '@jest/globals';
import { INVOICE_SIGNALS, TASK_QUEUES, WORKFLOW_TYPES, invoiceReopenedWorkflowId, invoiceWorkflowId } from '../src/index.js';
import * as workflows from '../src/workflows/index.js';

describe('invoice expiry workflow constants', () => {
  it('invoiceWorkflowId(slug) is invoice-<slug>', () => {
    expect(invoiceWorkflowId('Ab3dEf6hIj9kLm2nOp5qRs8t')).toBe('invoice-Ab3dEf6hIj9kLm2nOp5qRs8t');
  });

  it('refuses an empty slug rather than naming a shared workflow', () => {
    expect(() => invoiceWorkflowId('')).toThrow(/slug must not be empty/);
  });

  it('an invoice reopened by a reorg gets its own id per orphaned block', () => {
    expect(invoiceReopenedWorkflowId('Ab3d', 'ffee01')).toBe('invoice-Ab3d-reopened-ffee01');
    expect(() => invoiceReopenedWorkflowId('Ab3d', '')).toThrow(/must not be empty/);
  });

  it('the registered type name is the exported workflow function, with its two signals, on the crypto queue', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.invoiceExpiry]).toBe('function');
    expect(INVOICE_SIGNALS).toEqual({ settled: 'settled', cancelled: 'cancelled' });
    expect(TASK_QUEUES.crypto).toBe('crypto');
  });
});
