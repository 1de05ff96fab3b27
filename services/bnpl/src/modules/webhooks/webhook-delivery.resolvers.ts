import type { Resolvers } from '../../graphql/resolvers-types.js';
import { webhookManagerMerchantId } from '../webhook-endpoints/index.js';

// Thin resolvers over WebhookDeliveryService: the merchant's own deliveries and a re-send, dashboard token only like
// the endpoints. BnplWebhookDelivery's parent is a delivery with its attempts.
export const webhookDeliveryResolvers = {
  Mutation: {
    redeliverBnplWebhookDelivery: async (_parent, { id }, ctx) => ctx.webhookDeliveries.redeliver(id, { merchantId: webhookManagerMerchantId(await ctx.principal()) }),
  },
  BnplMerchant: {
    webhookDeliveries: async (_merchant, args, ctx) => ctx.webhookDeliveries.recent({ merchantId: webhookManagerMerchantId(await ctx.principal()) }, args.limit ?? undefined),
  },
  BnplWebhookDelivery: {
    id: ({ delivery }) => delivery.id,
    event: ({ delivery }) => delivery.eventName,
    eventId: ({ delivery }) => delivery.eventId,
    deliveryNumber: ({ delivery }) => delivery.deliveryNumber,
    redeliveryOf: ({ delivery }) => delivery.redeliveryOf ?? null,
    webhookEndpointId: ({ delivery }) => delivery.endpointId ?? null,
    endpointUrl: ({ delivery }) => delivery.endpointUrl,
    status: ({ delivery }) => delivery.status,
    attemptCount: ({ delivery }) => delivery.attemptCount,
    lastStatusCode: ({ delivery }) => delivery.lastStatusCode ?? null,
    body: ({ delivery }) => delivery.body,
    createdAt: ({ delivery }) => delivery.createdAt.toISOString(),
    completedAt: ({ delivery }) => delivery.completedAt?.toISOString() ?? null,
    nextAttemptAt: ({ delivery }) => delivery.nextAttemptAt?.toISOString() ?? null,
    attempts: ({ attempts }) => attempts,
  },
  BnplWebhookDeliveryAttempt: {
    attemptNumber: (attempt) => attempt.attemptNumber,
    outcome: (attempt) => attempt.outcome,
    statusCode: (attempt) => attempt.statusCode ?? null,
    error: (attempt) => attempt.error ?? null,
    attemptedAt: (attempt) => attempt.attemptedAt.toISOString(),
    durationMs: (attempt) => attempt.durationMs,
  },
} satisfies Resolvers;
