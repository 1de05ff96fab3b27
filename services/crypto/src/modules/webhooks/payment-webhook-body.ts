// The crypto spec's webhook body: one flat JSON object, no envelope, exactly the Events table's fields in its order.
import type { Asset } from '../assets/index.js';
import type { PaymentEventName, PaymentRef, PaymentRequest } from '../payment-requests/index.js';

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
 * Added after the spec's fields on a payment.late body: the late payment it is about. There is one payment.late per
 * late payment, so with id and event these identify a repeat (a retry or re-send carries the same values).
 */
export const LATE_PAYMENT_WEBHOOK_FIELDS = ['payment_txid', 'payment_output_index', 'payment_amount'] as const;

export interface LatePaymentWebhookFields {
  payment_txid: string;
  payment_output_index: number;
  payment_amount: string;
}

/** The fields that describe the request's state at a moment: read again for every attempt. */
type RequestStateFields = Pick<PaymentWebhookBody, 'status' | 'amount_paid' | 'paid_at'>;

/** `status` at `at` (deadline applied, as the API reports it) and the confirmed total and settle time behind it. */
function requestStateAt(request: PaymentRequest, at: Date): RequestStateFields {
  return { status: request.statusAt(at), amount_paid: request.amountPaid.toString(), paid_at: request.paidAt?.toISOString() ?? null };
}

/**
 * The body of `event` for `request` as it stands now with `timestamp` = `generatedAt`: what is stored when the delivery
 * is enqueued. Each attempt sends it through `paymentWebhookBodyAt`, which brings the request's state up to that moment.
 * A payment.late also names its late payment (LATE_PAYMENT_WEBHOOK_FIELDS).
 */
export function paymentWebhookBody(
  request: PaymentRequest,
  event: PaymentEventName,
  generatedAt: Date,
  latePayment?: PaymentRef,
): PaymentWebhookBody | (PaymentWebhookBody & LatePaymentWebhookFields) {
  const body = specBody(request, event, generatedAt);
  if (event !== 'payment.late' || !latePayment) return body;
  return { ...body, payment_txid: latePayment.txid, payment_output_index: latePayment.outputIndex, payment_amount: latePayment.amount.toString() };
}

/** The spec's 12 fields in its order. */
function specBody(request: PaymentRequest, event: PaymentEventName, generatedAt: Date): PaymentWebhookBody {
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
