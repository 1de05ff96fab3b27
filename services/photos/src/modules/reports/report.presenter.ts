// The report resource as REST answers it and webhooks carry it: one presenter for both. The photos inside are the
// photo resource (presentPhoto), so a report's photo reads exactly as GET /photos/{photo}.
import type { z } from 'zod';
import { presentPhoto, type MediaUrlSigner } from '../photos/index.js';
import type { ReportUrlSigner } from './report-urls.js';
import type { Report } from './report.entity.js';
import type { reportListResponse, reportResource, reportSummaryResource } from './report.openapi.js';
import type { ReportPage } from './report.service.js';

/** The signers of the URLs a report carries: its photos' media URLs and its own download URL. */
export interface ReportUrls {
  media: MediaUrlSigner;
  reports: ReportUrlSigner;
}

/** The list's fields; `report.project` and `report.createdBy` loaded. */
export function presentReportSummary(report: Report, urls: ReportUrls): z.input<typeof reportSummaryResource> {
  const ready = report.status === 'ready' && report.pdfSha256 != null;
  return {
    id: report.id,
    title: report.title,
    notes: report.notes,
    project: { id: report.project.id, name: report.project.name },
    status: report.status,
    failure: report.status === 'failed' && report.failureReason ? { reason: report.failureReason, message: report.failureMessage ?? '' } : null,
    share: { state: report.shareTokenHash ? 'link' : 'private', shared_at: report.shareTokenHash ? (report.sharedAt?.toISOString() ?? null) : null },
    photo_count: report.photoCount,
    page_count: report.pageCount ?? null,
    pdf_size_bytes: report.pdfSizeBytes ?? null,
    pdf_sha256: report.pdfSha256 ?? null,
    download_url: ready ? urls.reports.url(report.id, report.pdfSha256!) : null,
    created_by: report.createdBy ? { id: report.createdBy.id, name: report.createdBy.name } : null,
    created_at: report.createdAt.toISOString(),
    updated_at: report.updatedAt.toISOString(),
    rendered_at: report.renderedAt?.toISOString() ?? null,
  };
}

/** The full resource; the report's photos (with each photo's project) loaded too. */
export function presentReport(report: Report, urls: ReportUrls): z.input<typeof reportResource> {
  const items = report.photos.getItems();
  return {
    ...presentReportSummary(report, urls),
    photos: items.map((item) => ({ position: item.position, photo: presentPhoto(item.photo, urls.media) })),
    manifest: {
      algorithm: 'SHA-256',
      photos: items.map((item) => ({ position: item.position, photo_id: item.photo.id, local_capture_id: item.photo.localCaptureId, sha256: item.sha256 ?? null })),
    },
  };
}

export function presentReportPage(page: ReportPage, urls: ReportUrls): z.input<typeof reportListResponse> {
  return {
    data: page.items.map((report) => presentReportSummary(report, urls)),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
