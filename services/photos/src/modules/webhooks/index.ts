// Team events as signed webhook deliveries (the kit's delivery engine, Standard Webhooks signatures).
export { createTeamWebhookEmitter, newWebhookEventId, type PhotosWebhookEnvelope, type TeamWebhookEmitter } from './team-webhook-emitter.js';
