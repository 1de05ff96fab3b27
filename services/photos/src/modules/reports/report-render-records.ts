// The record side of the report activities: what rendering reads of a report and its photos, and where it writes the
// outcome back (ready with the PDF and the originals' hashes, or failed), announcing report.ready / report.failed in
// the same transaction. Each call on its own EntityManager: the activities run outside any request.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { transactionWithAfterCommit } from '@tributary/kit';
import type { ReportFailureReason } from './report-status.js';
import { canTransition } from './report-status.js';
import type { ReportEvent, ReportEventSink } from './report-events.js';
import type { ReportUrls } from './report.presenter.js';
import { Report } from './report.entity.js';
import { presentReport } from './report.presenter.js';

/** Everything the PDF prints, read when rendering starts. */
export interface ReportToRender {
  id: number;
  teamId: number;
  title: string;
  notes: string;
  createdAt: Date;
  createdBy: string | null;
  project: { id: number; name: string; address: string | null; coordinates: { lat: number; lng: number; radiusM: number } | null };
  photos: PhotoToPrint[];
}

export interface PhotoToPrint {
  position: number;
  id: number;
  localCaptureId: string;
  mediaType: 'photo' | 'video';
  mimeType: string;
  sizeBytes: number;
  originalKey: string;
  posterKey: string | null;
  durationSeconds: number | null;
  description: string;
  tags: string[];
  capturedAt: Date | null;
  uploadedAt: Date;
  location: { lat: number; lng: number; accuracyM: number | null } | null;
  assignment: { source: string; distanceM: number | null; reason: string | null };
}

/** What rendering produced. */
export interface RenderedReport {
  pdfKey: string;
  pdfSha256: string;
  pdfSizeBytes: number;
  pageCount: number;
  /** SHA-256 of each photo's original, by photo id. */
  photoSha256: ReadonlyMap<number, string>;
}

/** `begin`'s answer: the report to render, or why there is nothing to render. */
export type RenderStart = { kind: 'render'; report: ReportToRender } | { kind: 'gone' } | { kind: 'ready'; pdfSha256: string; pageCount: number };

/** Where report.ready / report.failed go; the URL signers are made when first needed (the worker's config is read then). */
export interface WorkerReportAnnouncements {
  sink: ReportEventSink;
  urls: () => ReportUrls;
}

export class ReportRenderRecords {
  private signers: ReportUrls | undefined;

  constructor(
    private readonly em: EntityManager,
    private readonly announcements?: WorkerReportAnnouncements | undefined,
  ) {}

  /** Marks the report rendering (again, on a retry) and reads what the PDF prints. */
  async begin(reportId: number): Promise<RenderStart> {
    const em = this.em.fork();
    const report = await em.findOne(Report, { id: reportId }, { populate: ['project', 'createdBy', 'photos.photo'] });
    if (!report) return { kind: 'gone' };
    if (report.status === 'ready') return { kind: 'ready', pdfSha256: report.pdfSha256 ?? '', pageCount: report.pageCount ?? 0 };
    // A failed report is final: nothing to render (the workflow records nothing further either).
    if (!canTransition(report.status, 'rendering')) return { kind: 'gone' };
    report.status = 'rendering';
    await em.flush();
    return { kind: 'render', report: toRender(report) };
  }

  /** Records the PDF and the originals' hashes: the report is ready (report.ready announced). */
  async complete(reportId: number, rendered: RenderedReport): Promise<void> {
    await this.finish(reportId, 'ready', 'report.ready', (report) => {
      Object.assign(report, { pdfKey: rendered.pdfKey, pdfSha256: rendered.pdfSha256, pdfSizeBytes: rendered.pdfSizeBytes, pageCount: rendered.pageCount, renderedAt: new Date() });
      for (const item of report.photos) item.sha256 = rendered.photoSha256.get(item.photo.id) ?? null;
    });
  }

  /** Records the failure (report.failed announced); a report already ready or failed is left alone. */
  async fail(reportId: number, reason: ReportFailureReason, message: string): Promise<void> {
    await this.finish(reportId, 'failed', 'report.failed', (report) => {
      report.failureReason = reason;
      report.failureMessage = message;
    });
  }

  private async finish(reportId: number, status: 'ready' | 'failed', event: ReportEvent, apply: (report: Report) => void): Promise<void> {
    await transactionWithAfterCommit<void>(this.em.fork(), async (tx) => {
      // Locked: the workflow's failure record and a late retry's completion never both win.
      const report = await tx.findOne(Report, { id: reportId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!report || !canTransition(report.status, status)) return { result: undefined };
      await tx.populate(report, ['project', 'createdBy', 'photos.photo.project']);
      report.status = status;
      apply(report);
      await tx.flush();
      const announcements = this.announcements;
      if (!announcements) return { result: undefined };
      this.signers ??= announcements.urls();
      const afterCommit = await announcements.sink.emit(tx, report.team.id, event, presentReport(report, this.signers));
      return { result: undefined, afterCommit };
    });
  }
}

function toRender(report: Report): ReportToRender {
  const { project } = report;
  return {
    id: report.id,
    teamId: report.team.id,
    title: report.title,
    notes: report.notes,
    createdAt: report.createdAt,
    createdBy: report.createdBy?.name ?? null,
    project: { id: project.id, name: project.name, address: project.address ?? null, coordinates: project.coordinates() },
    photos: report.photos.getItems().map((item) => {
      const photo = item.photo;
      return {
        position: item.position,
        id: photo.id,
        localCaptureId: photo.localCaptureId,
        mediaType: photo.mediaType,
        mimeType: photo.mimeType,
        sizeBytes: photo.sizeBytes,
        originalKey: photo.originalKey,
        posterKey: photo.posterKey ?? null,
        durationSeconds: photo.durationSeconds ?? null,
        description: photo.description,
        tags: photo.tags,
        capturedAt: photo.capturedAt ?? null,
        uploadedAt: photo.uploadedAt,
        location: photo.location(),
        assignment: { source: photo.assignmentSource, distanceM: photo.distanceM ?? null, reason: photo.unassignedReason ?? null },
      };
    }),
  };
}
