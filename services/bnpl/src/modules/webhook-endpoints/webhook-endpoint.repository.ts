import { EntityRepository } from '@mikro-orm/postgresql';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { isUuid } from '@tributary/kit';

export class WebhookEndpointRepository extends EntityRepository<WebhookEndpoint> {
  /** The merchant's endpoints in creation order. */
  forMerchant(merchantId: string): Promise<WebhookEndpoint[]> {
    return this.find({ merchant: merchantId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** One of the merchant's endpoints; null for another merchant's, an unknown or a malformed id. */
  findOwned(merchantId: string, id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.findOne({ id, merchant: merchantId });
  }

  /** Any merchant's endpoint by id (the worker resolving a signing secret); null for a malformed or unknown id. */
  findById(id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.findOne({ id }, { refresh: true });
  }

  countForMerchant(merchantId: string): Promise<number> {
    return this.count({ merchant: merchantId });
  }

  /** The merchant's active endpoints subscribed to `event`, in creation order: who receives it. */
  subscribers(merchantId: string, event: string): Promise<WebhookEndpoint[]> {
    return this.find({ merchant: merchantId, isActive: true, events: { $contains: [event] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
