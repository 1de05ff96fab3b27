// Webhook endpoint signing secrets: `whsec_` + 48 characters [A-Za-z0-9], one per endpoint, shown only in the create
// answer. HMAC needs the plaintext at send time, so it is stored sealed (AES-256-GCM, kit SecretBox under
// SECRETS_ENCRYPTION_KEY) rather than hashed; the sealed value is bound to its endpoint (associated data), so it does
// not open on another row. Deliveries carry only a reference (`webhook_endpoint:<id>`), resolved when each attempt is
// sent: a deleted endpoint resolves to nothing and the attempt is recorded as failed, never sent unsigned.
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomChars, type SecretBox } from '@tributary/kit';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9]{48}$/;
const REF_PREFIX = 'webhook_endpoint:';

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomChars(48)}`;
}

/** The delivery's `signingSecretRef` for an endpoint. */
export function webhookEndpointSecretRef(endpointId: string): string {
  return `${REF_PREFIX}${endpointId}`;
}

function sealContext(endpointId: string): string {
  return `bnpl:webhook_endpoint:${endpointId}:secret`;
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

  /** The endpoint's secret, or null (no such endpoint). Throws SecretBoxError under a wrong SECRETS_ENCRYPTION_KEY. */
  async current(endpointId: string): Promise<string | null> {
    const endpoint = await this.em.getRepository(WebhookEndpoint).findById(endpointId);
    return endpoint ? this.box.open(endpoint.secretSealed, sealContext(endpoint.id)) : null;
  }

  /** Resolves a delivery's `signingSecretRef` (`webhook_endpoint:<id>`); null for any other reference. */
  resolve(ref: string): Promise<string | null> {
    return ref.startsWith(REF_PREFIX) ? this.current(ref.slice(REF_PREFIX.length)) : Promise.resolve(null);
  }
}
