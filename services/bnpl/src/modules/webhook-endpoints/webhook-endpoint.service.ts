// The one domain path of webhook endpoints for REST and GraphQL: list, read, create (the secret is returned once),
// replace and delete, each scoped to the caller's merchant. The URL must be https and resolve to public addresses
// (the kit's SSRF rules, `WEBHOOK_ALLOW_PRIVATE_HOSTS` exempting hosts) when saved; the sender checks again at send
// time. Registering an endpoint contacts nothing: the only network use is the DNS lookup of the URL's host.
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, NotFoundError, assertPublicWebhookUrl, parseInput, type HostResolver, type SecretBox } from '@tributary/kit';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from '../merchants/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-endpoint-secret.js';
import { createWebhookEndpointInput, updateWebhookEndpointInput } from './webhook-endpoint.validation.js';

/** How many endpoints one merchant may register (a 17th is refused: 422 `webhook_endpoint_limit`). */
export const MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT = 16;

export interface WebhookEndpointServiceOptions {
  /** Seals the signing secrets (SECRETS_ENCRYPTION_KEY). */
  box: SecretBox;
  /** `WEBHOOK_ALLOW_PRIVATE_HOSTS`: hosts/CIDRs exempted from the public-address rule. */
  allowPrivateHosts?: readonly string[];
  /** DNS resolver of the save-time check (the system's by default). */
  lookup?: HostResolver;
}

/** A newly created endpoint: the only moment its secret is readable. */
export interface CreatedWebhookEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * Webhooks are managed from the dashboard (spec "Authentication": DT for managing webhooks): an API key pair, which
 * GraphQL also accepts, is refused here so both doors apply the same rule.
 */
export function webhookManagerMerchantId(principal: BnplPrincipal): string {
  return dashboardMerchantId(principal, 'Webhooks');
}

export class WebhookEndpointService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: WebhookEndpointServiceOptions,
  ) {}

  list(principal: BnplPrincipal): Promise<WebhookEndpoint[]> {
    return this.em.getRepository(WebhookEndpoint).forMerchant(webhookManagerMerchantId(principal));
  }

  /** One of the merchant's endpoints; another merchant's, an unknown or a malformed id is the same NotFoundError. */
  async get(principal: BnplPrincipal, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.em.getRepository(WebhookEndpoint).findOwned(webhookManagerMerchantId(principal), id);
    if (!endpoint) throw new NotFoundError(`webhook endpoint ${id}`);
    return endpoint;
  }

  async create(principal: BnplPrincipal, body: unknown): Promise<CreatedWebhookEndpoint> {
    const merchantId = webhookManagerMerchantId(principal);
    const input = parseInput(createWebhookEndpointInput, body);
    await this.assertDeliverableUrl(input.url);
    return this.em.transactional(async (tx) => {
      await this.assertRoomForAnother(tx, merchantId);
      const id = randomUUID();
      const secret = generateWebhookSecret();
      const endpoint = tx.create(WebhookEndpoint, {
        id,
        merchant: tx.getReference(Merchant, merchantId),
        url: input.url,
        events: input.events,
        isActive: input.is_active,
        secretSealed: sealWebhookSecret(this.options.box, id, secret),
      });
      await tx.flush();
      return { endpoint, secret };
    });
  }

  /** PUT: replaces url, events and is_active (all required); the secret is kept. */
  async update(principal: BnplPrincipal, id: string, body: unknown): Promise<WebhookEndpoint> {
    const endpoint = await this.get(principal, id);
    const input = parseInput(updateWebhookEndpointInput, body);
    await this.assertDeliverableUrl(input.url);
    endpoint.url = input.url;
    endpoint.events = input.events;
    endpoint.isActive = input.is_active;
    await this.em.flush();
    return endpoint;
  }

  /** Deletes the endpoint: no new deliveries; queued retries to it fail (its secret is gone), never sent unsigned. */
  async delete(principal: BnplPrincipal, id: string): Promise<void> {
    const endpoint = await this.get(principal, id);
    await this.em.remove(endpoint).flush();
  }

  private async assertDeliverableUrl(url: string): Promise<void> {
    await assertPublicWebhookUrl(url, { allowPrivateHosts: this.options.allowPrivateHosts ?? [], lookup: this.options.lookup, field: 'url' });
  }

  /** Counted under the merchant's row lock, so two concurrent creates cannot both take the last place. */
  private async assertRoomForAnother(tx: EntityManager, merchantId: string): Promise<void> {
    await tx.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const count = await tx.getRepository(WebhookEndpoint).countForMerchant(merchantId);
    if (count >= MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT) {
      throw new BusinessRuleError(`A merchant can have at most ${MAX_WEBHOOK_ENDPOINTS_PER_MERCHANT} webhook endpoints; delete one first.`, undefined, {
        code: 'webhook_endpoint_limit',
      });
    }
  }
}
