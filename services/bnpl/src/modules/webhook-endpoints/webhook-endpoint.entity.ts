import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

/**
 * A merchant's webhook endpoint (spec "Webhook endpoint"): an https URL, the events it subscribes to (names from
 * webhook-events.ts, deduplicated, in the order given) and whether it receives anything. The signing secret is
 * stored sealed (kit SecretBox, bound to the endpoint's id), never in plaintext: HMAC needs it back at send time.
 */
export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  repository: () => WebhookEndpointRepository,
  indexes: [{ properties: ['merchant', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    url: p.string().length(2048),
    events: p.array(),
    isActive: p.boolean(),
    secretSealed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class WebhookEndpoint extends WebhookEndpointSchema.class {
  subscribesTo(event: string): boolean {
    return this.events.includes(event);
  }
}
WebhookEndpointSchema.setClass(WebhookEndpoint);
