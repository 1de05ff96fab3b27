// Loan statuses (spec "Sale (loan)"), exactly the spec's values. Checkout books a loan as `approved`; the money
// lifecycle that moves it on (funded, active, paid_off, in_arrears, defaulted, written_off, cancelled) is part 2.
export const LOAN_STATUSES = ['pending', 'approved', 'funded', 'active', 'paid_off', 'in_arrears', 'defaulted', 'written_off', 'cancelled'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** The status of a loan booked at checkout. */
export const BOOKED_LOAN_STATUS: LoanStatus = 'approved';
