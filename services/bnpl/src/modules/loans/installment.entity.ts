import { defineEntity, p } from '@mikro-orm/core';
import { Loan } from './loan.entity.js';

/** One installment of a loan (spec "Installment"): its number, amount, due date and, once collected, paid_at. */
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
  },
});

export class Installment extends InstallmentSchema.class {}
InstallmentSchema.setClass(Installment);
