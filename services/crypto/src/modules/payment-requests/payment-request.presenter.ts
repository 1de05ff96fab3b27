// The payment request object exactly as the spec's field table lists it (order, types); amounts as decimal strings.
import type { z } from 'zod';
import { MERCHANT_API_PREFIX } from '../../api-paths.js';
import type { Asset } from '../assets/index.js';
import type { PaymentRequest } from './payment-request.entity.js';
import type { paymentRequestListResponse, paymentRequestResource, publicPaymentRequestResource } from './payment-request.openapi.js';
import type { PaymentRequestPage } from './payment-request.repository.js';

export type PaymentRequestBody = z.input<typeof paymentRequestResource>;
export type PublicPaymentRequestBody = z.input<typeof publicPaymentRequestResource>;
export type PaymentRequestListBody = z.input<typeof paymentRequestListResponse>;

/** The merchant API path of one request: its internal id (the object itself never shows it), for the 201's Location. */
export function merchantPath(request: Pick<PaymentRequest, 'id'>): string {
  return `${MERCHANT_API_PREFIX}/payment-requests/${request.id}`;
}

/** Visibility P fields, in the spec's order. `now` decides whether a past deadline already reads expired. */
export function presentPublicPaymentRequest(request: PaymentRequest, now: Date): PublicPaymentRequestBody {
  const asset = request.asset as Asset;
  return {
    id: request.slug,
    type: request.type,
    title: request.title,
    description: request.description ?? null,
    status: request.statusAt(now),
    asset: asset.code,
    chain: asset.chain,
    address: request.address,
    amount_requested: request.amountRequested?.toString() ?? null,
    amount_paid: request.amountPaid.toString(),
    amount_outstanding: request.amountOutstanding?.toString() ?? null,
    expires_at: request.expiresAt?.toISOString() ?? null,
    paid_at: request.paidAt?.toISOString() ?? null,
    redirect_url: request.redirectUrl ?? null,
  };
}

/** The merchant object: every field of the table (P and M), in the spec's order; never the internal id. */
export function presentPaymentRequest(request: PaymentRequest, now: Date): PaymentRequestBody {
  return {
    ...presentPublicPaymentRequest(request, now),
    reference: request.reference ?? null,
    webhook_url: request.webhookUrl ?? null,
    created_at: request.createdAt.toISOString(),
  };
}

/** The spec's paginator: data, current_page, per_page, total. */
export function presentPaymentRequestPage(page: PaymentRequestPage, now: Date): PaymentRequestListBody {
  return { data: page.items.map((item) => presentPaymentRequest(item, now)), current_page: page.page, per_page: page.perPage, total: page.total };
}
