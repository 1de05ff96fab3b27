import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { WebhookEndpointRepository } from './webhook-endpoint.repository.js';

/**
 * A team's webhook endpoint: an https URL, the events it receives (PHOTOS_WEBHOOK_EVENTS, deduplicated, in the order
 * given) and whether it receives anything. The Standard Webhooks secret is stored sealed (kit SecretBox, bound to the
 * endpoint's id): HMAC needs it back at send time.
 */
export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  repository: () => WebhookEndpointRepository,
  indexes: [{ properties: ['team', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    url: p.string().length(2048),
    events: p.array(),
    isActive: p.boolean(),
    secretSealed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
