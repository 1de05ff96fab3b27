// An installment's status in the sale detail, derived until the loan lifecycle stores one: paid once paid_at is set;
// overdue when still unpaid after its due date (the UTC calendar day after due_date onwards: a payment due today is
// not late yet); pending otherwise.
export const INSTALLMENT_STATUSES = ['pending', 'paid', 'overdue'] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

export function installmentStatus(installment: { dueDate: string; paidAt?: Date | null }, now: Date): InstallmentStatus {
  if (installment.paidAt) return 'paid';
  return installment.dueDate < now.toISOString().slice(0, 10) ? 'overdue' : 'pending';
}
