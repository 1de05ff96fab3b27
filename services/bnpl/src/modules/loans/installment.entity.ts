import { defineEntity, p } from '@mikro-orm/core';
import { Loan } from './loan.entity.js';

/** pending until paid; missed once its last auto-debit attempt was declined (it can still be paid in-app). */
export const INSTALLMENT_STATUSES = ['pending', 'paid', 'missed'] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

/** One installment of a loan (spec "Installment"): its number, amount, due date and, once collected, paid_at;
 * its collection status and debit attempts. */
export const InstallmentSchema = defineEntity({
  name: 'Installment',
  tableName: 'installments',
  uniques: [{ properties: ['loan', 'installmentNumber'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    loan: () => p.manyToOne(Loan).deleteRule('cascade'),
    installmentNumber: p.integer(),
    amountCents: p.integer(),
    dueDate: p.string().columnType('date'),
    paidAt: p.datetime().nullable(),
    status: p.enum(INSTALLMENT_STATUSES).default('pending'),
    /** Debit attempts made (auto-debit and in-app); attempt n of the schedule is the next one when this is n-1. */
    attemptCount: p.integer().default(0),
    lastAttemptAt: p.datetime().nullable(),
    /** The processor's reason for the last declined attempt. */
    lastDeclineCode: p.string().length(64).nullable(),
  },
});

export class Installment extends InstallmentSchema.class {}
InstallmentSchema.setClass(Installment);
