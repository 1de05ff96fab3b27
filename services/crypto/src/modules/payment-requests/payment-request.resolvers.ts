import { enumMapping } from '@tributary/kit';
import type { PaymentRequestStatus as GqlStatus, PaymentRequestType as GqlType, Resolvers } from '../../graphql/resolvers-types.js';
import type { Asset } from '../assets/index.js';
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

// Thin resolvers over PaymentRequestService (the same domain path as REST): typed arguments in, entities out.
export const paymentRequestResolvers = {
  Decimal: DecimalScalar,
  Query: {
    paymentRequests: async (_parent, args, ctx) =>
      ctx.paymentRequests.list(await ctx.principal(), { ...args, status: args.status == null ? args.status : status.fromGraphql(args.status) }),
    paymentRequest: async (_parent, args, ctx) => ctx.paymentRequests.get(await ctx.principal(), args.id),
  },
  Mutation: {
    createPaymentRequest: async (_parent, { input, idempotencyKey }, ctx) => {
      const draft = { ...input, type: input.type == null ? input.type : type.fromGraphql(input.type) };
      return (await ctx.paymentRequests.create(await ctx.principal(), draft, { idempotencyKey })).paymentRequest;
    },
    cancelPaymentRequest: async (_parent, args, ctx) => ctx.paymentRequests.cancel(await ctx.principal(), args.id),
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
} satisfies Resolvers;
