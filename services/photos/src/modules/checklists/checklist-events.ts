// What the checklists module announces (the webhooks module delivers it): a port, so checklists need not know about
// webhook endpoints. `data` is the REST resource (checklist.presenter.ts), queued in the transaction of the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { MediaUrlSigner } from '../photos/index.js';

export type ChecklistEvent = 'checklist.created' | 'checklist.updated' | 'checklist_item.updated';

export interface ChecklistEventSink {
  emit(tx: EntityManager, teamId: number, event: ChecklistEvent, data: object): Promise<AfterCommit | undefined>;
}

/** Where checklist events go; none: nothing is announced. */
export interface ChecklistServiceOptions {
  urls: MediaUrlSigner;
  events?: ChecklistEventSink | undefined;
}
