import { EntityRepository } from '@mikro-orm/postgresql';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { isUuid } from '@tributary/kit';

export class WebhookEndpointRepository extends EntityRepository<WebhookEndpoint> {
  /** The team's endpoints in creation order. */
  forTeam(teamId: number): Promise<WebhookEndpoint[]> {
    return this.find({ team: teamId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** One of the team's endpoints; null for another team's, an unknown or a malformed id. */
  findOwned(teamId: number, id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.findOne({ id, team: teamId });
  }

  /** Any team's endpoint by id (the worker resolving a signing secret); null for a malformed or unknown id. */
  findById(id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.findOne({ id }, { refresh: true });
  }

  /** The sealed secret of any team's endpoint (the worker signing a delivery); null for an unknown id. */
  async sealedSecretOf(id: string): Promise<string | null> {
    return (await this.findById(id))?.secretSealed ?? null;
  }

  countForTeam(teamId: number): Promise<number> {
    return this.count({ team: teamId });
  }

  /** The team's active endpoints subscribed to `event`, in creation order: who receives it. */
  subscribers(teamId: number, event: string): Promise<WebhookEndpoint[]> {
    return this.find({ team: teamId, isActive: true, events: { $contains: [event] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
