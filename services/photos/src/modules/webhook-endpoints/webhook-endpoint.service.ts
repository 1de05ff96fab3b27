// The one domain path of webhook endpoints for REST and GraphQL: list, read, create (the secret is returned once),
// edit and delete, each inside the caller's team; callers have checked the caller is a team administrator (REST
// requireRole, GraphQL principalWithRole: an owner or admin in an office session).
// The URL must be https and resolve to public addresses (the kit's SSRF rules, `WEBHOOK_ALLOW_PRIVATE_HOSTS` exempting
// hosts) when saved; the sender checks again at send time.
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, NotFoundError, assertPublicWebhookUrl, parseInput, type HostResolver, type SecretBox } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Team } from '../teams/index.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { generateWebhookSecret, webhookSecretSeal } from './webhook-endpoint-secret.js';
import { webhookEndpointChanges, webhookEndpointSettings, type WebhookEndpointSettings } from './webhook-endpoint.validation.js';

/** How many endpoints one team may register (a 17th is refused: 422 `webhook_endpoint_limit`). */
export const MAX_WEBHOOK_ENDPOINTS_PER_TEAM = 16;

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

export class WebhookEndpointService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: WebhookEndpointServiceOptions,
  ) {}

  list(principal: PhotosPrincipal): Promise<WebhookEndpoint[]> {
    return this.em.getRepository(WebhookEndpoint).forTeam(principal.teamId);
  }

  /** One of the team's endpoints; another team's, an unknown or a malformed id is the same NotFoundError. */
  async get(principal: PhotosPrincipal, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.em.getRepository(WebhookEndpoint).findOwned(principal.teamId, id);
    if (!endpoint) throw new NotFoundError(`webhook endpoint ${id}`);
    return endpoint;
  }

  async create(principal: PhotosPrincipal, given: WebhookEndpointSettings): Promise<CreatedWebhookEndpoint> {
    const teamId = principal.teamId;
    const settings = parseInput(webhookEndpointSettings, given);
    await this.assertDeliverableUrl(settings.url);
    return this.em.transactional(async (tx) => {
      await this.assertRoomForAnother(tx, teamId);
      const id = randomUUID();
      const secret = generateWebhookSecret();
      const endpoint = tx.create(WebhookEndpoint, {
        id,
        team: tx.getReference(Team, teamId),
        url: settings.url,
        events: settings.events,
        isActive: settings.isActive,
        secretSealed: webhookSecretSeal(this.options.box).seal(id, secret),
      });
      await tx.flush();
      return { endpoint, secret };
    });
  }

  /** Changes what is given; the secret is kept. */
  async update(principal: PhotosPrincipal, id: string, given: Partial<WebhookEndpointSettings>): Promise<WebhookEndpoint> {
    const endpoint = await this.get(principal, id);
    const changes = parseInput(webhookEndpointChanges, given);
    if (changes.url !== undefined) await this.assertDeliverableUrl(changes.url);
    if (changes.url !== undefined) endpoint.url = changes.url;
    if (changes.events !== undefined) endpoint.events = changes.events;
    if (changes.isActive !== undefined) endpoint.isActive = changes.isActive;
    await this.em.flush();
    return endpoint;
  }

  /** No new deliveries; queued retries to it fail (its secret is gone), never sent unsigned. */
  async delete(principal: PhotosPrincipal, id: string): Promise<void> {
    const endpoint = await this.get(principal, id);
    await this.em.remove(endpoint).flush();
  }

  private async assertDeliverableUrl(url: string): Promise<void> {
    await assertPublicWebhookUrl(url, { allowPrivateHosts: this.options.allowPrivateHosts ?? [], lookup: this.options.lookup, field: 'url' });
  }

  /** Counted under the team's row lock, so two concurrent creates cannot both take the last place. */
  private async assertRoomForAnother(tx: EntityManager, teamId: number): Promise<void> {
    await tx.findOneOrFail(Team, { id: teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if ((await tx.getRepository(WebhookEndpoint).countForTeam(teamId)) >= MAX_WEBHOOK_ENDPOINTS_PER_TEAM) {
      throw new BusinessRuleError(`A team can have at most ${MAX_WEBHOOK_ENDPOINTS_PER_TEAM} webhook endpoints; delete one first.`, undefined, {
        code: 'webhook_endpoint_limit',
      });
    }
  }
}
