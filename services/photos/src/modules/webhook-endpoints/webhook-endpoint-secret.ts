// Webhook endpoint signing secrets: Standard Webhooks secrets (`whsec_` + base64 of 32 random bytes), one per endpoint,
// shown only in the create answer, stored sealed by the kit's WebhookEndpointSecretSeal (kit webhooks/endpoint-secrets.ts),
// which the worker also resolves deliveries' references with.
import { WebhookEndpointSecretSeal, generateStandardWebhookSecret, type SecretBox } from '@tributary/kit';
import { SERVICE_NAME } from '../../service-name.js';

export const generateWebhookSecret = generateStandardWebhookSecret;

export function webhookSecretSeal(box: SecretBox): WebhookEndpointSecretSeal {
  return new WebhookEndpointSecretSeal(SERVICE_NAME, box);
}
