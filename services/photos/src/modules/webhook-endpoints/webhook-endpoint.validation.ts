// The webhook endpoint bodies as zod schemas: the routes parse and document with them. The URL's network rules
// (https, public address) are checked by the service with the kit's SSRF policy, after these.
import { wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { PHOTOS_WEBHOOK_EVENTS, type PhotosWebhookEvent } from './webhook-events.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** A list longer than this is refused before deduplication. */
export const WEBHOOK_EVENTS_MAX_ITEMS = 100;

const url = wellFormedText(z.string().trim().min(1).max(WEBHOOK_URL_MAX_LENGTH)).meta({
  description: 'https URL of a public host (resolving to public addresses only); contacted only when an event fires.',
  example: 'https://office.example.com/hooks/photos',
});

const events = z
  .array(z.enum(PHOTOS_WEBHOOK_EVENTS, { error: `Must be one of: ${PHOTOS_WEBHOOK_EVENTS.join(', ')}.` }))
  .min(1, { error: 'Must list at least one event.' })
  .max(WEBHOOK_EVENTS_MAX_ITEMS)
  .transform((names) => [...new Set(names)])
  .meta({ description: `Events to receive: ${PHOTOS_WEBHOOK_EVENTS.map((name) => `\`${name}\``).join(', ')}. Duplicates are dropped.` });

export const createWebhookEndpointBody = z.object({
  url,
  events,
  is_active: z.boolean().default(true).meta({ description: 'Default true: an inactive endpoint receives nothing.' }),
});

/** PATCH: any of the three; the secret stays. */
export const updateWebhookEndpointBody = z.object({ url: url.optional(), events: events.optional(), is_active: z.boolean().optional() });

/**
 * A webhook endpoint's settings in the domain's terms: what the service takes, from REST once parsed and from GraphQL
 * as typed; the service checks them with the same field rules (GraphQL arguments arrive unchecked).
 */
export const webhookEndpointSettings = z.object({ url, events, isActive: z.boolean() });
export const webhookEndpointChanges = webhookEndpointSettings.partial();
export interface WebhookEndpointSettings {
  url: string;
  events: PhotosWebhookEvent[];
  isActive: boolean;
}

export function createSettingsOf(body: z.infer<typeof createWebhookEndpointBody>): WebhookEndpointSettings {
  return { url: body.url, events: body.events, isActive: body.is_active };
}

export function updateSettingsOf(body: z.infer<typeof updateWebhookEndpointBody>): Partial<WebhookEndpointSettings> {
  return {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.events !== undefined ? { events: body.events } : {}),
    ...(body.is_active !== undefined ? { isActive: body.is_active } : {}),
  };
}
