// Auto-debit of installments goes through one interface, PaymentProcessor; the service ships a simulated processor
// keyed on documented test payment methods (the way card networks publish test card numbers). A real processor plugs in
// behind the same interface: it must honour `idempotencyKey` (a retried activity repeats the same key).
//
// Where a loan's payment method comes from (README Decisions): checkout records it at booking. In test mode it is
// picked by the shopper's e-mail, like checkout's decline trigger: local part `fail_once` or ending in `+fail_once`
// → pm_test_fail_once; `always_fails` / `+always_fails` → pm_test_always_fails; anything else → pm_test_success.
// A live loan records pm_card_on_file (the card the shopper entered; no real processor is wired in yet).

export const TEST_PAYMENT_METHODS = {
  /** Every debit succeeds (the default). */
  success: 'pm_test_success',
  /** The first attempt at each installment is declined, the next one succeeds. */
  failOnce: 'pm_test_fail_once',
  /** Every debit is declined (insufficient funds): installments are missed. */
  alwaysFails: 'pm_test_always_fails',
} as const;

/** The payment method of a live loan. */
export const LIVE_PAYMENT_METHOD = 'pm_card_on_file';

/** The e-mail words (local part, or its `+word` suffix) that pick a failing test payment method. */
export const PAYMENT_METHOD_EMAIL_TRIGGERS = { fail_once: TEST_PAYMENT_METHODS.failOnce, always_fails: TEST_PAYMENT_METHODS.alwaysFails } as const;

export const PAYMENT_METHOD_MAX = 40;

export interface DebitRequest {
  paymentMethod: string;
  amountCents: number;
  currency: string;
  /** 1-based attempt at this installment (in-app payments count as attempts too). */
  attemptNumber: number;
  /** Same key, same outcome, at most one charge: `<installment id>:<attempt>` (an in-app payment: a fresh key each). */
  idempotencyKey: string;
}

export type DebitResult = { outcome: 'succeeded' } | { outcome: 'declined'; declineCode: string };

export interface PaymentProcessor {
  debit(request: DebitRequest): Promise<DebitResult>;
}

/** The payment method checkout records for a loan booked with this e-mail. */
export function paymentMethodFor(customerEmail: string, livemode: boolean): string {
  if (livemode) return LIVE_PAYMENT_METHOD;
  const at = customerEmail.lastIndexOf('@');
  const local = (at > 0 ? customerEmail.slice(0, at) : customerEmail).toLowerCase();
  for (const [word, method] of Object.entries(PAYMENT_METHOD_EMAIL_TRIGGERS)) {
    if (local === word || local.endsWith(`+${word}`)) return method;
  }
  return TEST_PAYMENT_METHODS.success;
}

/**
 * The simulated processor: stateless and deterministic (the outcome depends only on the request, so a repeated key
 * repeats its outcome). pm_test_fail_once declines attempt 1; pm_test_always_fails declines every attempt with
 * `insufficient_funds`; every other method (pm_test_success, pm_card_on_file) succeeds.
 */
export const simulatedPaymentProcessor: PaymentProcessor = {
  async debit(request) {
    if (request.paymentMethod === TEST_PAYMENT_METHODS.alwaysFails) return { outcome: 'declined', declineCode: 'insufficient_funds' };
    if (request.paymentMethod === TEST_PAYMENT_METHODS.failOnce && request.attemptNumber === 1) return { outcome: 'declined', declineCode: 'insufficient_funds' };
    return { outcome: 'succeeded' };
  },
};
