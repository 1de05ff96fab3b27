// Crypto's webhooks on the kit's delivery engine: the event sink (spec body, outbox), delivery listing, re-fire
// (operator commands and the merchant's own, WebhookDeliveryService).
export { PAYMENT_WEBHOOK_FIELDS, WEBHOOK_EVENTS, paymentWebhookBody, type PaymentWebhookBody } from './payment-webhook-body.js';
export { WEBHOOK_SERVICE, createPaymentWebhookSink, paymentRequestEndpointId, type PaymentWebhookSinkOptions } from './payment-webhook-sink.js';
export { RECENT_DELIVERIES_DEFAULT, RECENT_DELIVERIES_MAX, WebhookDeliveryService } from './webhook-delivery.service.js';
export { WebhookDeliveryQueries, presentDelivery, redeliverPaymentWebhook, type DeliveryWithAttempts } from './webhook-delivery.queries.js';
