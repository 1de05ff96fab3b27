// Webhook endpoint signing secrets: `whsec_` + 48 characters [A-Za-z0-9], one per endpoint, shown only in the create
// answer, stored sealed and resolved at send time by the kit's WebhookEndpointSecretSeal (see kit
// webhooks/endpoint-secrets.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEndpointSecretSeal, randomChars, webhookEndpointSecretRef, type SecretBox } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

export { webhookEndpointSecretRef } from '@tributary/kit';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9]{48}$/;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomChars(48)}`;
}

export function sealWebhookSecret(box: SecretBox, endpointId: string, secret: string): string {
  return new WebhookEndpointSecretSeal(SERVICE_NAME, box).seal(endpointId, secret);
}

/** Opens endpoints' sealed secrets (the worker, at send time). */
export class WebhookEndpointSecrets {
  private readonly seal: WebhookEndpointSecretSeal;

  constructor(
    private readonly em: EntityManager,
    box: SecretBox,
  ) {
    this.seal = new WebhookEndpointSecretSeal(SERVICE_NAME, box);
  }

  /** The endpoint's secret, or null (no such endpoint). Throws SecretBoxError under a wrong SECRETS_ENCRYPTION_KEY. */
  current(endpointId: string): Promise<string | null> {
    return this.seal.resolve(webhookEndpointSecretRef(endpointId), (id) => this.sealedSecretOf(id));
  }

  /** Resolves a delivery's `signingSecretRef` (`webhook_endpoint:<id>`); null for any other reference. */
  resolve(ref: string): Promise<string | null> {
    return this.seal.resolve(ref, (id) => this.sealedSecretOf(id));
  }

  private async sealedSecretOf(endpointId: string): Promise<string | null> {
    return (await this.em.getRepository(WebhookEndpoint).findById(endpointId))?.secretSealed ?? null;
  }
}
