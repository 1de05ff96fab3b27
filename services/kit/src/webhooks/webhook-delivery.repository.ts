import { EntityRepository } from '@mikro-orm/postgresql';
import { WebhookDeliveryAttempt, type WebhookDelivery } from './entities.js';
import { isUuid } from '../validation/index.js';

/** A delivery with its attempts in order: what a dashboard or an operator reads. */
export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookDeliveryAttempt[];
}

/** Reads of one service's webhook deliveries; every query names the service (a database may hold only its own). */
export class WebhookDeliveryRepository extends EntityRepository<WebhookDelivery> {
  /** The most recent deliveries, newest first, of one owner or (operators) of all. */
  async recent(query: { service: string; ownerId?: string | undefined; limit: number }): Promise<DeliveryWithAttempts[]> {
    const where = query.ownerId === undefined ? { service: query.service } : { service: query.service, ownerId: query.ownerId };
    return this.withAttempts(await this.find(where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.limit }));
  }

  /** The deliveries to one endpoint reference, oldest first. */
  async forEndpoint(service: string, endpointId: string): Promise<DeliveryWithAttempts[]> {
    return this.withAttempts(await this.find({ service, endpointId }, { orderBy: { createdAt: 'asc', deliveryNumber: 'asc' } }));
  }

  /** The delivery with this id, when it belongs to `ownerId` (any owner when undefined); null otherwise, and for a malformed id. */
  findOwned(service: string, id: string, ownerId?: string): Promise<WebhookDelivery | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.findOne(ownerId === undefined ? { id, service } : { id, service, ownerId });
  }

  private async withAttempts(rows: WebhookDelivery[]): Promise<DeliveryWithAttempts[]> {
    if (rows.length === 0) return [];
    const attempts = await this.em.find(WebhookDeliveryAttempt, { deliveryId: { $in: rows.map((row) => row.id) } }, { orderBy: { attemptNumber: 'asc' } });
    return rows.map((delivery) => ({ delivery, attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id) }));
  }
}
