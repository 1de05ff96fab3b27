// What the reports module announces (the webhooks module delivers it): a port, so reports need not know about webhook
// endpoints. `data` is the REST resource (presentReport), queued in the transaction that made the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';
import type { ReportUrls } from './report.presenter.js';

/** report.created (queued), report.ready (rendered), report.failed, report.updated (share state changed). */
export const REPORT_EVENTS = ['report.created', 'report.updated', 'report.ready', 'report.failed'] as const;
export type ReportEvent = (typeof REPORT_EVENTS)[number];

export interface ReportEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: ReportEvent, data: object): Promise<AfterCommit | undefined>;
}

/** Where report events go and the signers of the URLs their data carries (the same URLs a REST read answers). */
export interface ReportAnnouncements {
  sink: ReportEventSink;
  urls: ReportUrls;
}
