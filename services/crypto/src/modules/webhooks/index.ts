// Crypto's webhooks on the kit's delivery engine: the event sink (spec body, outbox), delivery listing, re-fire.
export { PAYMENT_WEBHOOK_FIELDS, WEBHOOK_EVENTS, paymentWebhookBody, type PaymentWebhookBody } from './payment-webhook-body.js';
export { WEBHOOK_SERVICE, createPaymentWebhookSink, paymentRequestEndpointId, type PaymentWebhookSinkOptions } from './payment-webhook-sink.js';
export { WebhookDeliveryQueries, presentDelivery, redeliverPaymentWebhook, type DeliveryWithAttempts } from './webhook-delivery.queries.js';
