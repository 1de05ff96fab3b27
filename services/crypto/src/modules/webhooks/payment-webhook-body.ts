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

/** The fields that describe the request's state at a moment: read again for every attempt. */
type RequestStateFields = Pick<PaymentWebhookBody, 'status' | 'amount_paid' | 'paid_at'>;

/** `status` at `at` (deadline applied, as the API reports it) and the confirmed total and settle time behind it. */
function requestStateAt(request: PaymentRequest, at: Date): RequestStateFields {
  return { status: request.statusAt(at), amount_paid: request.amountPaid.toString(), paid_at: request.paidAt?.toISOString() ?? null };
}

/**
 * The body of `event` for `request` as it stands now with `timestamp` = `generatedAt`: what is stored when the delivery
 * is enqueued. Each attempt sends it through `paymentWebhookBodyAt`, which brings the request's state up to that moment.
 */
export function paymentWebhookBody(request: PaymentRequest, event: PaymentEventName, generatedAt: Date): PaymentWebhookBody {
  const asset = request.asset as Asset;
  const state = requestStateAt(request, generatedAt);
  return {
    event,
    id: request.slug,
    type: request.type,
    status: state.status,
    asset: asset.code,
    chain: asset.chain,
    amount_requested: request.amountRequested?.toString() ?? null,
    amount_paid: state.amount_paid,
    reference: request.reference ?? null,
    address: request.address,
    paid_at: state.paid_at,
    timestamp: generatedAt.toISOString(),
  };
}

/**
 * A stored body as sent at `sentAt` (spec: `status` is the "status at the moment of sending"): `status`, with the
 * `amount_paid` and `paid_at` it follows from, read from `request` now; every other field, `timestamp` included, as
 * generated. Returns the stored text itself when nothing changed, so an unchanged retry sends identical bytes.
 */
export function paymentWebhookBodyAt(storedBody: string, request: PaymentRequest, sentAt: Date): string {
  const body = JSON.parse(storedBody) as Record<string, unknown>;
  const state = requestStateAt(request, sentAt);
  const changed = Object.entries(state).filter(([field, value]) => field in body && body[field] !== value);
  if (changed.length === 0) return storedBody;
  for (const [field, value] of changed) body[field] = value;
  return JSON.stringify(body);
}
