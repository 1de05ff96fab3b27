// The crypto spec's webhook body: one flat JSON object, no envelope, exactly the Events table's fields in its order.
import type { Asset } from '../assets/index.js';
import type { PaymentEventName, PaymentRequest } from '../payment-requests/index.js';

/** The only events ever sent (spec "Events"). */
export const WEBHOOK_EVENTS = ['payment.paid', 'payment.late', 'payment.expired'] as const satisfies readonly PaymentEventName[];

export interface PaymentWebhookBody {
  event: PaymentEventName;
  id: string;
  type: string;
  status: string;
  asset: string;
  chain: string;
  amount_requested: string | null;
  amount_paid: string;
  reference: string | null;
  address: string;
  paid_at: string | null;
  timestamp: string;
}

/** Field order of the spec's body table (tests compare against it). */
export const PAYMENT_WEBHOOK_FIELDS = ['event', 'id', 'type', 'status', 'asset', 'chain', 'amount_requested', 'amount_paid', 'reference', 'address', 'paid_at', 'timestamp'] as const;

/**
 * The body of `event` for `request` as it stands now (status at the moment the delivery is generated) with
 * `timestamp` = `generatedAt`. The text is frozen when the delivery is enqueued, so every retry sends these bytes.
 */
export function paymentWebhookBody(request: PaymentRequest, event: PaymentEventName, generatedAt: Date): PaymentWebhookBody {
  const asset = request.asset as Asset;
  return {
    event,
    id: request.slug,
    type: request.type,
    status: request.statusAt(generatedAt),
    asset: asset.code,
    chain: asset.chain,
    amount_requested: request.amountRequested?.toString() ?? null,
    amount_paid: request.amountPaid.toString(),
    reference: request.reference ?? null,
    address: request.address,
    paid_at: request.paidAt?.toISOString() ?? null,
    timestamp: generatedAt.toISOString(),
  };
}
