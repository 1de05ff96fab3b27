// What the pages module announces (the webhooks module delivers it): a port, so pages need not know about webhook
// endpoints. `data` is the REST resource (presentPage, with body and body_html), queued in the changing transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';

export type PageEvent = 'page.created' | 'page.updated';

export interface PageEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: PageEvent, data: object): Promise<AfterCommit | undefined>;
}
