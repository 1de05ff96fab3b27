// Webhook endpoint signing secrets at rest, the same for every service: HMAC needs the plaintext at send time, so a
// secret is stored sealed (AES-256-GCM, SecretBox under SECRETS_ENCRYPTION_KEY) rather than hashed, and the sealed value
// is bound to its service and endpoint (associated data), so it does not open on another row. Deliveries carry only a
// reference (`webhook_endpoint:<id>`), resolved when each attempt is sent: a deleted endpoint resolves to nothing and
// the attempt is recorded as failed, never sent unsigned.
import type { ServiceName } from '@tributary/workflows';
import type { SecretBox } from '../security/index.js';

const REF_PREFIX = 'webhook_endpoint:';

/** The delivery's `signingSecretRef` for an endpoint. */
export function webhookEndpointSecretRef(endpointId: string): string {
  return `${REF_PREFIX}${endpointId}`;
}

/** The endpoint id a `signingSecretRef` names, or null for any other kind of reference. */
export function endpointIdOfSecretRef(ref: string): string | null {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
}

export class WebhookEndpointSecretSeal {
  constructor(
    private readonly service: ServiceName,
    private readonly box: SecretBox,
  ) {}

  seal(endpointId: string, secret: string): string {
    return this.box.seal(secret, this.context(endpointId));
  }

  /** Throws SecretBoxError under a wrong SECRETS_ENCRYPTION_KEY or for another endpoint's sealed value. */
  open(endpointId: string, sealed: string): string {
    return this.box.open(sealed, this.context(endpointId));
  }

  /**
   * Resolves a delivery's `signingSecretRef` with the service's lookup of an endpoint's sealed secret; null for a
   * deleted endpoint or another kind of reference.
   */
  async resolve(ref: string, sealedSecretOf: (endpointId: string) => Promise<string | null>): Promise<string | null> {
    const endpointId = endpointIdOfSecretRef(ref);
    if (endpointId === null) return null;
    const sealed = await sealedSecretOf(endpointId);
    return sealed === null ? null : this.open(endpointId, sealed);
  }

  private context(endpointId: string): string {
    return `${this.service}:webhook_endpoint:${endpointId}:secret`;
  }
}
