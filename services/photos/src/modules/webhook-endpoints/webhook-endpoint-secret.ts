// Webhook endpoint signing secrets: Standard Webhooks secrets (`whsec_` + base64 of 32 random bytes), one per endpoint,
// shown only in the create answer. HMAC needs the plaintext at send time, so it is stored sealed (AES-256-GCM, kit
// SecretBox under SECRETS_ENCRYPTION_KEY), bound to its endpoint. Deliveries carry only a reference
// (`webhook_endpoint:<id>`), resolved when each attempt is sent: a deleted endpoint resolves to nothing and the attempt
// is recorded as failed, never sent unsigned.
import type { EntityManager } from '@mikro-orm/postgresql';
import { generateStandardWebhookSecret, type SecretBox } from '@tributary/kit';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

const REF_PREFIX = 'webhook_endpoint:';

export const generateWebhookSecret = generateStandardWebhookSecret;

/** The delivery's `signingSecretRef` for an endpoint. */
export function webhookEndpointSecretRef(endpointId: string): string {
  return `${REF_PREFIX}${endpointId}`;
}

function sealContext(endpointId: string): string {
  return `photos:webhook_endpoint:${endpointId}:secret`;
}

export function sealWebhookSecret(box: SecretBox, endpointId: string, secret: string): string {
  return box.seal(secret, sealContext(endpointId));
}

/** Opens endpoints' sealed secrets (the worker, at send time). */
export class WebhookEndpointSecrets {
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
  ) {}

  /** Resolves a delivery's `signingSecretRef`; null for a deleted endpoint or any other reference. */
  async resolve(ref: string): Promise<string | null> {
    if (!ref.startsWith(REF_PREFIX)) return null;
    const endpoint = await this.em.getRepository(WebhookEndpoint).findById(ref.slice(REF_PREFIX.length));
    return endpoint ? this.box.open(endpoint.secretSealed, sealContext(endpoint.id)) : null;
  }
}
