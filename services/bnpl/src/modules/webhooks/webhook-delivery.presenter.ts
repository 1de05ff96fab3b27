// A delivery as the operator commands print it (`bnpl deliveries --json`): the kit's view of a delivery plus whose it
// is (the merchant) and the webhook endpoint it went to.
import { presentWebhookDelivery, type DeliveryWithAttempts } from '@tributary/kit';

export function presentDelivery(delivery: DeliveryWithAttempts) {
  const { id, ...view } = presentWebhookDelivery(delivery);
  return { id, merchant_id: delivery.delivery.ownerId ?? null, webhook_endpoint_id: delivery.delivery.endpointId ?? null, ...view };
}
