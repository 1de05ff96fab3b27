// The webhook endpoint bodies (spec "Webhook endpoint"), as zod schemas: the routes document them
// (webhook-endpoint.openapi.ts) and WebhookEndpointService validates with them. The URL's network rules (https, public
// address) are checked by the service with the kit's SSRF policy, after these.
import { wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { WEBHOOK_EVENT_NAMES } from './webhook-events.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** A list longer than this is refused before deduplication (there are only 13 names). */
export const WEBHOOK_EVENTS_MAX_ITEMS = 100;

const url = wellFormedText(z.string().trim().min(1).max(WEBHOOK_URL_MAX_LENGTH)).meta({
  description: 'https URL of a public host (resolving to public addresses only); the service contacts it only when an event fires.',
  example: 'https://shop.example.com/hooks/bnpl',
});

const eventName = z.enum(WEBHOOK_EVENT_NAMES, { error: `Must be one of: ${WEBHOOK_EVENT_NAMES.join(', ')}.` });

/** Known names only, at least one; duplicates are dropped (first occurrence kept, order kept). */
const events = z
  .array(eventName)
  .min(1, { error: 'Must list at least one event.' })
  .max(WEBHOOK_EVENTS_MAX_ITEMS)
  .transform((names) => [...new Set(names)])
  .meta({ description: `Event names to receive: ${WEBHOOK_EVENT_NAMES.map((name) => `\`${name}\``).join(', ')}. Duplicates are dropped.` });

export const createWebhookEndpointInput = z.object({
  url,
  events,
  is_active: z.boolean().default(true).meta({ description: 'Optional on create, default true: an inactive endpoint receives nothing.' }),
});

/** PUT replaces the endpoint's settings: all three fields are required (the secret stays). */
export const updateWebhookEndpointInput = z.object({ url, events, is_active: z.boolean() });

export type CreateWebhookEndpointInput = z.infer<typeof createWebhookEndpointInput>;
export type UpdateWebhookEndpointInput = z.infer<typeof updateWebhookEndpointInput>;
