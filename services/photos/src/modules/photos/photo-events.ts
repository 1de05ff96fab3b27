// What the photos module announces (the webhooks module delivers it): a port, so photos need not know about webhook
// endpoints. `data` is the REST resource (presentPhoto), queued in the transaction that made the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { MediaUrlSigner } from './media-urls.js';

export type PhotoEvent = 'photo.created' | 'photo.updated';

export interface PhotoEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: PhotoEvent, data: object): Promise<AfterCommit | undefined>;
}

/** Where photo events go and the signer of the media URLs their data carries (the same URLs a REST read answers). */
export interface PhotoAnnouncements {
  sink: PhotoEventSink;
  urls: MediaUrlSigner;
}
