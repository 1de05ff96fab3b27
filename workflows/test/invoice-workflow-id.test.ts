import { describe, expect, it } from '@jest/globals';
import { INVOICE_SIGNALS, TASK_QUEUES, WORKFLOW_TYPES, invoiceReopenedWorkflowId, invoiceWorkflowId } from '../src/index.js';
import * as workflows from '../src/workflows/index.js';

describe('invoice expiry workflow constants', () => {
  const createdAt = new Date('2026-11-28T12:00:00.123Z');

  it('is named by the internal id and creation instant: invoice-<id>-<epoch ms>', () => {
    expect(invoiceWorkflowId({ id: 42, createdAt })).toBe(`invoice-42-${createdAt.getTime()}`);
  });

  it('refuses a slug (the payer view\'s capability) and any id that is not a positive integer', () => {
    const slug = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
    expect(() => invoiceWorkflowId({ id: slug as unknown as number, createdAt })).toThrow(/internal id/);
    for (const id of [0, -1, 1.5, Number.NaN]) expect(() => invoiceWorkflowId({ id, createdAt })).toThrow(/internal id/);
    expect(() => invoiceWorkflowId({ id: 1, createdAt: new Date(Number.NaN) })).toThrow(/createdAt/);
  });

  it('an invoice reopened by a reorg gets its own id per orphaned block', () => {
    expect(invoiceReopenedWorkflowId({ id: 42, createdAt }, 'ffee01')).toBe(`invoice-42-${createdAt.getTime()}-reopened-ffee01`);
    expect(() => invoiceReopenedWorkflowId({ id: 42, createdAt }, '')).toThrow(/must not be empty/);
    expect(() => invoiceReopenedWorkflowId({ id: 'Ab3d' as unknown as number, createdAt }, 'ffee01')).toThrow(/internal id/);
  });

  it('the registered type name is the exported workflow function, with its two signals, on the crypto queue', () => {
    expect(typeof (workflows as Record<string, unknown>)[WORKFLOW_TYPES.invoiceExpiry]).toBe('function');
    expect(INVOICE_SIGNALS).toEqual({ settled: 'settled', cancelled: 'cancelled' });
    expect(TASK_QUEUES.crypto).toBe('crypto');
  });
});
