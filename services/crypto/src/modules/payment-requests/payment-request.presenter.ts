// The payment request object exactly as the spec's field table lists it (order, types); amounts as decimal strings.
import type { z } from 'zod';
import { MERCHANT_API_PREFIX } from '../../api-paths.js';
import type { Amount } from '../../money/index.js';
import type { Asset } from '../assets/index.js';
import type { PaymentRequest } from './payment-request.entity.js';
import type { paymentRequestListResponse, paymentRequestResource, publicPaymentRequestResource } from './payment-request.openapi.js';
import type { PaymentRequestViewPage } from './payment-request.repository.js';
import { amountOutstanding, effectiveStatus, type PaymentRequestStatus, type PaymentRequestType } from './status-engine.js';

export type PaymentRequestBody = z.input<typeof paymentRequestResource>;
export type PublicPaymentRequestBody = z.input<typeof publicPaymentRequestResource>;
export type PaymentRequestListBody = z.input<typeof paymentRequestListResponse>;

/** The merchant API path of one request: its internal id (the object itself never shows it), for the 201's Location. */
export function merchantPath(request: Pick<PaymentRequest, 'id'>): string {
  return `${MERCHANT_API_PREFIX}/payment-requests/${request.id}`;
}

/**
 * What the answers show of a request, without the entity: the REST list reads its page as plain rows
 * (PaymentRequestRepository.listViewsForAccount), since hydrating entities it never changes cost it some 40 % of its CPU.
 */
export interface PaymentRequestView {
  slug: string;
  type: PaymentRequestType;
  title: string;
  description: string | null;
  /** The stored status; what the API reports is effectiveStatus at `now`. */
  status: PaymentRequestStatus;
  asset: Pick<Asset, 'code' | 'chain'>;
  address: string;
  amountRequested: Amount | null;
  amountPaid: Amount;
  expiresAt: Date | null;
  paidAt: Date | null;
  redirectUrl: string | null;
  reference: string | null;
  webhookUrl: string | null;
  createdAt: Date;
}

/** An entity's view: the same fields, the asset populated (every read of the repository populates it). */
export function viewOf(request: PaymentRequest): PaymentRequestView {
  const asset = request.asset as Asset;
  return {
    slug: request.slug,
    type: request.type,
    title: request.title,
    description: request.description ?? null,
    status: request.status,
    asset: { code: asset.code, chain: asset.chain },
    address: request.address,
    amountRequested: (request.amountRequested as Amount | null | undefined) ?? null,
    amountPaid: request.amountPaid as Amount,
    expiresAt: request.expiresAt ?? null,
    paidAt: request.paidAt ?? null,
    redirectUrl: request.redirectUrl ?? null,
    reference: request.reference ?? null,
    webhookUrl: request.webhookUrl ?? null,
    createdAt: request.createdAt,
  };
}

const asView = (request: PaymentRequest | PaymentRequestView): PaymentRequestView => ('statusAt' in request ? viewOf(request) : request);

/** Visibility P fields, in the spec's order. `now` decides whether a past deadline already reads expired. */
export function presentPublicPaymentRequest(entityOrView: PaymentRequest | PaymentRequestView, now: Date): PublicPaymentRequestBody {
  const request = asView(entityOrView);
  return {
    id: request.slug,
    type: request.type,
    title: request.title,
    description: request.description,
    status: effectiveStatus(request, now),
    asset: request.asset.code,
    chain: request.asset.chain,
    address: request.address,
    amount_requested: request.amountRequested?.toString() ?? null,
    amount_paid: request.amountPaid.toString(),
    amount_outstanding: amountOutstanding(request)?.toString() ?? null,
    expires_at: request.expiresAt?.toISOString() ?? null,
    paid_at: request.paidAt?.toISOString() ?? null,
    redirect_url: request.redirectUrl ?? null,
  };
}

/** The merchant object: every field of the table (P and M), in the spec's order; never the internal id. */
export function presentPaymentRequest(entityOrView: PaymentRequest | PaymentRequestView, now: Date): PaymentRequestBody {
  const request = asView(entityOrView);
  return {
    ...presentPublicPaymentRequest(request, now),
    reference: request.reference,
    webhook_url: request.webhookUrl,
    created_at: request.createdAt.toISOString(),
  };
}

/** The spec's paginator: data, current_page, per_page, total. */
export function presentPaymentRequestPage(page: PaymentRequestViewPage, now: Date): PaymentRequestListBody {
  return { data: page.items.map((item) => presentPaymentRequest(item, now)), current_page: page.page, per_page: page.perPage, total: page.total };
}
