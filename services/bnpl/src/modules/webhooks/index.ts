// bnpl's webhooks on the kit's delivery engine: merchant events become one signed delivery per subscribed active
// endpoint (the loan event sink, and the generic emitter part 2's installment and settlement events reuse), the
// deliveries as merchants and operators read them, and the one way to re-send one. The event catalogue lives with the
// endpoints that subscribe from it (webhook-endpoints) and is re-exported here.
export {
  EMITTED_WEBHOOK_EVENTS,
  RESERVED_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_NAMES,
  type EmittedWebhookEvent,
  type ReservedWebhookEvent,
  type WebhookEventName,
} from '../webhook-endpoints/index.js';
export {
  createLoanWebhookSink,
  createSettlementWebhookSink,
  createMerchantWebhookEmitter,
  deliveryOwnerId,
  webhookEventId,
  type MerchantWebhookEmitter,
  type MerchantWebhookSinkOptions,
  type WebhookEnvelope,
} from './merchant-webhook-sink.js';
export { RECENT_DELIVERIES_DEFAULT, RECENT_DELIVERIES_MAX, WebhookDeliveryService, type DeliveryScope } from './webhook-delivery.service.js';
export { presentDelivery } from './webhook-delivery.presenter.js';
export { webhookDeliveryResolvers } from './webhook-delivery.resolvers.js';
