import { enumMapping, parseInput } from '@tributary/kit';
import type { CreatePhotosReportInput, PhotosReportFailureReason, PhotosReportStatus, Resolvers } from '../../graphql/resolvers-types.js';
import { TEAM_ROLES } from '../teams/index.js';
import type { ReportFailureReason, ReportStatus } from './report-status.js';
import { listReportsQuery } from './report.validation.js';

const reportStatus = enumMapping<ReportStatus, PhotosReportStatus>({ queued: 'QUEUED', rendering: 'RENDERING', ready: 'READY', failed: 'FAILED' });
const failureReason = enumMapping<ReportFailureReason, PhotosReportFailureReason>({ unrenderable_media: 'UNRENDERABLE_MEDIA', gave_up: 'GAVE_UP' });

/** The GraphQL input as the REST create body, so one schema checks both and errors name the REST fields. */
function createBody(input: CreatePhotosReportInput): Record<string, unknown> {
  const id = (value: string) => (/^\d{1,10}$/.test(value) ? Number(value) : value);
  return { project_id: id(input.projectId), title: input.title, photo_ids: input.photoIds.map(id), ...(input.notes == null ? {} : { notes: input.notes }) };
}

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosReport's parent is the Report entity with
// project, createdBy and photos loaded). Writes need an office session of any role, as the REST routes.
export const reportResolvers = {
  Query: {
    photosReport: async (_parent, args, ctx) => ctx.reports.findVisible(await ctx.principalWith('reports:read'), args.id),
  },
  Mutation: {
    createPhotosReport: async (_parent, { input }, ctx) => ctx.reports.create(await ctx.principalWithRole(...TEAM_ROLES), createBody(input)),
    sharePhotosReport: async (_parent, args, ctx) => ctx.reports.share(await ctx.principalWithRole(...TEAM_ROLES), args.id),
    unsharePhotosReport: async (_parent, args, ctx) => ctx.reports.unshare(await ctx.principalWithRole(...TEAM_ROLES), args.id),
  },
  PhotosProject: {
    reports: async (project, args, ctx) => {
      const query = parseInput(listReportsQuery, { status: args.status ? reportStatus.fromGraphql(args.status) : undefined, page: args.page == null ? undefined : String(args.page) });
      const page = await ctx.reports.list(await ctx.principalWith('reports:read'), { projectId: project.id, status: query.status, page: query.page });
      return page;
    },
  },
  PhotosReport: {
    __resolveReference: async (ref, ctx) => ctx.reports.findVisible(await ctx.principalWith('reports:read'), ref.id),
    id: (report) => String(report.id),
    project: (report) => report.project,
    status: (report) => reportStatus(report.status),
    failure: (report) => (report.status === 'failed' && report.failureReason ? { reason: failureReason(report.failureReason), message: report.failureMessage ?? '' } : null),
    share: (report) => ({ state: report.shareTokenHash ? 'LINK' : 'PRIVATE', sharedAt: report.shareTokenHash ? (report.sharedAt?.toISOString() ?? null) : null }),
    pageCount: (report) => report.pageCount ?? null,
    pdfSizeBytes: (report) => report.pdfSizeBytes ?? null,
    pdfSha256: (report) => report.pdfSha256 ?? null,
    downloadUrl: (report, _args, ctx) => (report.status === 'ready' && report.pdfSha256 ? ctx.reportUrls.url(report.id, report.pdfSha256) : null),
    createdAt: (report) => report.createdAt.toISOString(),
    updatedAt: (report) => report.updatedAt.toISOString(),
    renderedAt: (report) => report.renderedAt?.toISOString() ?? null,
    // Lists load reports without their photos: loaded here when asked for.
    photos: async (report, _args, ctx) => ctx.reports.photosOf(report),
  },
  PhotosReportPhoto: {
    sha256: (item) => item.sha256 ?? null,
  },
  PhotosSharedReport: {
    shareUrl: (shared, _args, ctx) => ctx.reportUrls.shareUrl(shared.token),
  },
} satisfies Resolvers;
