import type { Resolvers } from '../../graphql/resolvers-types.js';

// Thin resolvers over WebhookDeliveryService: the merchant's own deliveries and a re-send (the spec's "recent deliveries
// and status codes are listed in the dashboard"). CryptoWebhookDelivery's parent is a delivery with its attempts.
export const webhookDeliveryResolvers = {
  Mutation: {
    redeliverWebhookDelivery: async (_parent, args, ctx) => ctx.webhookDeliveries.redeliver(args.id, { accountId: (await ctx.principal()).accountId }),
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
  CryptoWebhookDeliveryAttempt: {
    attemptNumber: (attempt) => attempt.attemptNumber,
    outcome: (attempt) => attempt.outcome,
    statusCode: (attempt) => attempt.statusCode ?? null,
    error: (attempt) => attempt.error ?? null,
    attemptedAt: (attempt) => attempt.attemptedAt.toISOString(),
    durationMs: (attempt) => attempt.durationMs,
  },
} satisfies Resolvers;
