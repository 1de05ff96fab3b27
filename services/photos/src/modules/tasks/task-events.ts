// What the tasks module announces (the webhooks module delivers it): a port, so tasks need not know about webhook
// endpoints. `data` is the REST resource (task.presenter.ts), queued in the transaction of the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { MediaUrlSigner } from '../photos/index.js';

export type TaskEvent = 'task.created' | 'task.updated' | 'task.closed' | 'task.withdrawn';

export interface TaskEventSink {
  emit(tx: EntityManager, teamId: number, event: TaskEvent, data: object): Promise<AfterCommit | undefined>;
}

export interface TaskServiceOptions {
  urls: MediaUrlSigner;
  /** Where task events go; none: nothing is announced. */
  events?: TaskEventSink | undefined;
}
