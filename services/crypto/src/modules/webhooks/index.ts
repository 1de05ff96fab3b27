// Crypto's webhooks on the kit's delivery engine: the event sink (spec body, outbox), the deliveries as merchants and
// operators read them, and the one way to re-send one.
export { LATE_PAYMENT_WEBHOOK_FIELDS, PAYMENT_WEBHOOK_FIELDS, WEBHOOK_EVENTS, paymentWebhookBody, paymentWebhookBodyAt, type LatePaymentWebhookFields, type PaymentWebhookBody } from './payment-webhook-body.js';
export { createPaymentWebhookSink, deliveryOwnerId, paymentRequestEndpointId, renderPaymentWebhookBody, type PaymentWebhookSinkOptions } from './payment-webhook-sink.js';
export { RECENT_DELIVERIES_DEFAULT, RECENT_DELIVERIES_MAX, WebhookDeliveryService, type DeliveryScope } from './webhook-delivery.service.js';
export { webhookDeliveryResolvers } from './webhook-delivery.resolvers.js';
