// Where refunds go: the shopper's payment method, through a payment processor behind one interface. Simulated here
// (no processor is reachable from this project), with a documented test value as card networks publish test numbers:
// in test mode a loan whose shopper e-mail has the local part `refund_fails` or ending in `+refund_fails` (e.g.
// `jo+refund_fails@example.com`) has every refund refused. Live-mode refunds always succeed in the simulation; a real
// processor plugs in behind RefundProcessor.

/** What the processor is asked to return to the shopper. */
export interface RefundOrder {
  refundId: string;
  livemode: boolean;
  amountCents: number;
  currency: string;
  customerEmail: string;
}

export type RefundOutcome = { ok: true } | { ok: false; reason: string };

export interface RefundProcessor {
  refund(order: RefundOrder): Promise<RefundOutcome>;
}

export const REFUND_REFUSED_REASON = "The shopper's payment method refused the refund.";

/** The test-mode trigger described above (any case). */
export function isRefundFailureTriggerEmail(email: string): boolean {
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
  return local === 'refund_fails' || local.endsWith('+refund_fails');
}

export const simulatedRefundProcessor: RefundProcessor = {
  async refund(order) {
    if (!order.livemode && isRefundFailureTriggerEmail(order.customerEmail)) return { ok: false, reason: REFUND_REFUSED_REASON };
    return { ok: true };
  },
};
