// Loans (sales) and their installments, booked at checkout, and their money lifecycle (funding, auto-debit with
// retries, arrears, default, write-off) driven by one Temporal workflow per loan.
import { InstallmentSchema } from './installment.entity.js';
import { LoanSchema } from './loan.entity.js';
import { TestClockSchema } from './test-clock.entity.js';

export { Loan, LoanSchema } from './loan.entity.js';
export { INSTALLMENT_STATUSES, Installment, InstallmentSchema, type InstallmentStatus } from './installment.entity.js';
export { BOOKED_LOAN_STATUS, LOAN_STATUSES, type LoanStatus } from './loan-status.js';
export { LOAN_NUMBER_PATTERN, generateLoanNumber } from './loan-number.js';
export { bookLoan, findLoanOfSession, type LoanBooking } from './loan-booking.js';
export { LoanRepository } from './loan.repository.js';
export { LoanService, RECENT_LOANS_DEFAULT, RECENT_LOANS_MAX } from './loan.service.js';
export { loanResolvers } from './loan.resolvers.js';
export {
  INSTALLMENT_EVENTS,
  LOAN_EVENTS,
  installmentEventData,
  loanEventData,
  noLoanEvents,
  type InstallmentEventName,
  type InstallmentMissedData,
  type InstallmentPaidData,
  type LoanEventData,
  type LoanEventName,
  type LoanEventSink,
  type LoanLifecycleEventSink,
} from './loan.events.js';
export {
  CANCELLABLE_LOAN_STATUSES,
  CLOSED_LOAN_STATUSES,
  COLLECTING_LOAN_STATUSES,
  PAYABLE_LOAN_STATUSES,
  applyLoanTrigger,
  isClosedLoan,
  type LoanLifecycleEvent,
  type LoanState,
  type LoanTransition,
  type LoanTrigger,
} from './loan-status-engine.js';
export {
  COLLECTION_ATTEMPTS,
  COLLECTION_ATTEMPT_DAYS,
  DEFAULT_AFTER_DAYS,
  WRITE_OFF_AFTER_DAYS,
  attemptInstant,
  dueInstant,
  nextLoanStep,
  type LoanStep,
} from './loan-schedule.js';
export {
  LIVE_PAYMENT_METHOD,
  PAYMENT_METHOD_EMAIL_TRIGGERS,
  TEST_PAYMENT_METHODS,
  paymentMethodFor,
  simulatedPaymentProcessor,
  type DebitRequest,
  type DebitResult,
  type PaymentProcessor,
} from './payment-processor.js';
export { LoanLifecycleService, type LoanAdvance, type LoanLifecycleServiceOptions } from './loan-lifecycle.service.js';
export { enqueueLoanLifecycle, loanClockAdvanced, loanLifecycleStart, loanPaymentReceived } from './loan-lifecycle.commands.js';
export { createLoanActivities, type LoanActivitiesDeps } from './loan.activities.js';

export { TestClock, TestClockSchema } from './test-clock.entity.js';
export { TEST_CLOCK_DURATION_MESSAGE, TEST_CLOCK_MAX_OFFSET_SECONDS, parseTestClockDuration } from './test-clock-duration.js';
export { TestClockService, loanClockNow, testClockOffsetMs, type TestClockAdvance, type TestClockReading, type TestClockServiceOptions } from './test-clock.service.js';
export { testClockResolvers } from './test-clock.resolvers.js';

export const loanEntities = [LoanSchema, InstallmentSchema, TestClockSchema];
