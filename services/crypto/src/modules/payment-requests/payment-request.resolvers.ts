import { enumMapping } from '@tributary/kit';
import type { CreatePaymentRequestInput, PaymentRequestStatus as GqlStatus, PaymentRequestType as GqlType, Resolvers } from '../../graphql/resolvers-types.js';
import type { Asset } from '../assets/asset.entity.js';
import { DecimalScalar } from './decimal-scalar.js';
import { amountExcess, type PaymentRequestStatus, type PaymentRequestType } from './status-engine.js';

const status = enumMapping<PaymentRequestStatus, GqlStatus>({
  pending: 'PENDING',
  partial: 'PARTIAL',
  paid: 'PAID',
  overpaid: 'OVERPAID',
  expired: 'EXPIRED',
  cancelled: 'CANCELLED',
});
const type = enumMapping<PaymentRequestType, GqlType>({ invoice: 'INVOICE', donation: 'DONATION' });

/** The GraphQL input in the REST body's spelling, so one validation path produces the same rules and messages. */
function toCreateBody(input: CreatePaymentRequestInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    asset_id: input.assetId,
    title: input.title,
    amount: input.amount,
    type: input.type === 'DONATION' ? 'donation' : 'invoice',
    description: input.description,
    reference: input.reference,
    ttl_minutes: input.ttlMinutes,
    webhook_url: input.webhookUrl,
    redirect_url: input.redirectUrl,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

// Thin resolvers over PaymentRequestService (the same domain path as REST).
export const paymentRequestResolvers = {
  Decimal: DecimalScalar,
  Query: {
    paymentRequests: async (_parent, args, ctx) => {
      const query: Record<string, string> = {};
      if (args.page != null) query.page = String(args.page);
      if (args.perPage != null) query.per_page = String(args.perPage);
      if (args.status != null) query.status = args.status.toLowerCase();
      if (args.reference != null) query.reference = args.reference;
      return ctx.paymentRequests.list(await ctx.principal(), query);
    },
    paymentRequest: async (_parent, args, ctx) => ctx.paymentRequests.get(await ctx.principal(), args.id),
  },
  Mutation: {
    createPaymentRequest: async (_parent, args, ctx) =>
      (await ctx.paymentRequests.createIdempotent(await ctx.principal(), toCreateBody(args.input), args.idempotencyKey)).paymentRequest,
    cancelPaymentRequest: async (_parent, args, ctx) => ctx.paymentRequests.cancel(await ctx.principal(), args.id),
    redeliverWebhookDelivery: async (_parent, args, ctx) => ctx.webhookDeliveries.redeliver(await ctx.principal(), args.id),
  },
  PaymentRequestPage: {
    data: (page) => page.items,
    currentPage: (page) => page.page,
    perPage: (page) => page.perPage,
    total: (page) => page.total,
  },
  PaymentRequest: {
    // _entities enforces authentication like every other field; another account's request resolves to null.
    __resolveReference: async (ref, ctx) => ctx.paymentRequests.findVisible(await ctx.principal(), ref.id),
    id: (request) => String(request.id as number),
    slug: (request) => request.slug,
    type: (request) => type(request.type),
    description: (request) => request.description ?? null,
    status: (request, _args, ctx) => status(request.statusAt(ctx.paymentRequests.clock())),
    asset: (request) => (request.asset as Asset).code,
    chain: (request) => (request.asset as Asset).chain,
    amountRequested: (request) => request.amountRequested?.toString() ?? null,
    amountPaid: (request) => request.amountPaid.toString(),
    amountOutstanding: (request) => request.amountOutstanding?.toString() ?? null,
    amountExcess: (request) => (request.type === 'donation' ? null : amountExcess(request.toState()).toString()),
    // The parent was resolved for the caller's account, so its payments are theirs.
    payments: (request, _args, ctx) => ctx.payments.listFor(request.id),
    expiresAt: (request) => request.expiresAt?.toISOString() ?? null,
    paidAt: (request) => request.paidAt?.toISOString() ?? null,
    redirectUrl: (request) => request.redirectUrl ?? null,
    reference: (request) => request.reference ?? null,
    webhookUrl: (request) => request.webhookUrl ?? null,
    createdAt: (request) => request.createdAt.toISOString(),
    // The parent was already resolved for the caller's account (list, get, _entities), so its deliveries are theirs.
    webhookDeliveries: (request, _args, ctx) => ctx.webhookDeliveries.forPaymentRequest(request.id as number),
  },
  CryptoWebhookDelivery: {
    id: ({ delivery }) => delivery.id,
    event: ({ delivery }) => delivery.eventName,
    deliveryNumber: ({ delivery }) => delivery.deliveryNumber,
    redeliveryOf: ({ delivery }) => delivery.redeliveryOf ?? null,
    endpointUrl: ({ delivery }) => delivery.endpointUrl,
    status: ({ delivery }) => delivery.status,
    attemptCount: ({ delivery }) => delivery.attemptCount,
    lastStatusCode: ({ delivery }) => delivery.lastStatusCode ?? null,
    body: ({ delivery }) => delivery.body,
    createdAt: ({ delivery }) => delivery.createdAt.toISOString(),
    completedAt: ({ delivery }) => delivery.completedAt?.toISOString() ?? null,
    nextAttemptAt: ({ delivery }) => delivery.nextAttemptAt?.toISOString() ?? null,
    attempts: ({ attempts }) => attempts,
    paymentRequest: async ({ delivery }, _args, ctx) => {
      const id = ctx.webhookDeliveries.paymentRequestIdOf(delivery);
      return id === null ? null : ctx.paymentRequests.findVisible(await ctx.principal(), String(id));
    },
  },
  CryptoPayment: {
    outputIndex: (payment) => payment.outputIndex,
    amount: (payment) => payment.amount.toString(),
    countedAt: (payment) => payment.countedAt?.toISOString() ?? null,
    receivedAt: (payment) => payment.createdAt.toISOString(),
  },
  CryptoWebhookDeliveryAttempt: {
    attemptNumber: (attempt) => attempt.attemptNumber,
    outcome: (attempt) => attempt.outcome,
    statusCode: (attempt) => attempt.statusCode ?? null,
    error: (attempt) => attempt.error ?? null,
    attemptedAt: (attempt) => attempt.attemptedAt.toISOString(),
    durationMs: (attempt) => attempt.durationMs,
  },
} satisfies Resolvers;
