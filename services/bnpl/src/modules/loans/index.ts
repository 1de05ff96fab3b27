// Loans (sales) and their installments, booked at checkout; part 2 adds their money lifecycle.
import { InstallmentSchema } from './installment.entity.js';
import { LoanSchema } from './loan.entity.js';

export { Loan, LoanSchema } from './loan.entity.js';
export { Installment, InstallmentSchema } from './installment.entity.js';
export { BOOKED_LOAN_STATUS, LOAN_STATUSES, type LoanStatus } from './loan-status.js';
export { LOAN_NUMBER_PATTERN, generateLoanNumber } from './loan-number.js';
export { bookLoan, findLoanOfSession, type LoanBooking } from './loan-booking.js';
export { LoanRepository } from './loan.repository.js';
export { LoanService, RECENT_LOANS_DEFAULT, RECENT_LOANS_MAX } from './loan.service.js';
export { loanResolvers } from './loan.resolvers.js';
export { LOAN_EVENTS, loanEventData, noLoanEvents, type LoanEventData, type LoanEventName, type LoanEventSink } from './loan.events.js';

export const loanEntities = [LoanSchema, InstallmentSchema];
