// PDF reports of a project's photos (spec "report": status, share state, ordered photos, download URL once rendered),
// rendered by the report workflow (report-<id>), each carrying a SHA-256 manifest of the originals.
import { ReportPhotoSchema, ReportSchema } from './report.entity.js';

export { Report, ReportPhoto, ReportPhotoSchema, ReportSchema } from './report.entity.js';
export { REPORT_FAILURE_REASONS, REPORT_STATUSES, canTransition, type ReportFailureReason, type ReportStatus } from './report-status.js';
export { REPORT_EVENTS, type ReportAnnouncements, type ReportEvent, type ReportEventSink } from './report-events.js';
export { ReportService, type ReportPage, type ReportPdf, type ReportServiceOptions, type SharedReport } from './report.service.js';
export { ReportUrlSigner } from './report-urls.js';
export { SHARE_TOKEN_FORMAT } from './report-share.js';
export { presentReport, presentReportPage, presentReportSummary, type ReportUrls } from './report.presenter.js';
export { ReportRenderRecords, type WorkerReportAnnouncements } from './report-render-records.js';
export { photosReportActivities, reportPdfKey, UNRENDERABLE_REPORT_MEDIA_FAILURE, type ReportActivityDeps } from './report-activities.js';
export { REPORTS_PER_PAGE, REPORT_PHOTOS_MAX } from './report.validation.js';
export { reportApi, reportResource } from './report.openapi.js';
export { reportRoutes } from './report.routes.js';
export { reportResolvers } from './report.resolvers.js';

export const reportEntities = [ReportSchema, ReportPhotoSchema];
