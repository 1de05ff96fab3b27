// The report routes as OpenAPI operations; report.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { photoResource } from '../photos/index.js';
import { REPORT_FAILURE_REASONS, REPORT_STATUSES } from './report-status.js';
import { REPORT_PDF_ROUTE_PATH, REPORT_URL_TTL_SECONDS } from './report-urls.js';
import { REPORTS_PER_PAGE, REPORT_PHOTOS_MAX, createReportBody, listReportsQuery } from './report.validation.js';

export const REPORT_SHARE_STATES = ['private', 'link'] as const;
/** The public route of a share link, Express notation. */
export const SHARED_REPORT_ROUTE_PATH = `${REST_BASE}/shared-reports/:token`;
const OFFICE_ONLY = 'An office session of any role (tokens with abilities: 403; the spec lists no reports:write ability).';
const sha256 = (description: string) => z.string().regex(/^[0-9a-f]{64}$/).nullable().meta({ description });

/** The fields of a report in lists; the full resource adds `photos` and `manifest`. */
const reportSummaryShape = {
  id: z.number().int(),
  title: z.string(),
  notes: z.string(),
  project: z.object({ id: z.number().int(), name: z.string() }),
  status: z.enum(REPORT_STATUSES).meta({ description: 'queued → rendering → ready, or failed (final states: ready, failed).' }),
  failure: z
    .object({ reason: z.enum(REPORT_FAILURE_REASONS), message: z.string() })
    .nullable()
    .meta({ description: 'Set when status is failed: `unrenderable_media` (a photo\'s original cannot be read) or `gave_up` (rendering failed repeatedly).' }),
  share: z
    .object({ state: z.enum(REPORT_SHARE_STATES), shared_at: z.iso.datetime().nullable() })
    .meta({ description: '`private`, or `link` while a share link works (its URL is shown once, by POST /reports/{report}/share).' }),
  photo_count: z.number().int(),
  page_count: z.number().int().nullable().meta({ description: 'Pages of the PDF once rendered.' }),
  pdf_size_bytes: z.number().int().nullable(),
  pdf_sha256: sha256('SHA-256 of the PDF (lowercase hex) once rendered: compare with `sha256sum report.pdf`.'),
  download_url: z
    .string()
    .nullable()
    .meta({ description: `Once ready: a signed URL of the PDF valid for at least ${REPORT_URL_TTL_SECONDS / 3600} hours, fetchable without a token; null before.` }),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  rendered_at: z.iso.datetime().nullable(),
};

export const reportSummaryResource = z.object(reportSummaryShape).meta({ id: 'PhotosReportSummary' });

export const reportResource = z
  .object({
    ...reportSummaryShape,
    photos: z.array(z.object({ position: z.number().int(), photo: photoResource })).meta({ description: 'The photos in print order (position from 1).' }),
    manifest: z
      .object({
        algorithm: z.literal('SHA-256'),
        photos: z.array(
          z.object({
            position: z.number().int(),
            photo_id: z.number().int(),
            local_capture_id: z.string(),
            sha256: sha256('SHA-256 of the stored original (the bytes of the photo\'s urls.full) when the report was rendered; null before.'),
          }),
        ),
      })
      .meta({ description: 'What the PDF\'s last page prints: a recipient hashes each original and compares (README: verifying a report).' }),
  })
  .meta({ id: 'PhotosReport' });

const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosReportPageMeta' });

export const reportResponse = z.object({ data: reportResource });
export const reportListResponse = z.object({ data: z.array(reportSummaryResource), meta: pageMeta });
export const reportShareResponse = z.object({
  data: reportResource,
  share_url: z.string().meta({ description: 'The link, shown only here: anyone holding it downloads the PDF without a token until the link is revoked or replaced.' }),
});

const reportPath = z.object({ report: z.string().meta({ description: 'Report id.' }) });
const pdfContent = { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } };

export const reportApi = {
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/reports`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createReport',
      summary: 'Create a PDF report of photos of a project',
      description: `Additive to the spec. \`photo_ids\` in print order: 1–${REPORT_PHOTOS_MAX} photos or videos of the project (another team's reads as missing), none twice; else 422 naming \`photo_ids.<index>\`. Answers 201 with the report \`queued\`; the workflow \`report-<id>\` renders it. ${OFFICE_ONLY}`,
      tags: ['Reports'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createReportBody } } },
      responses: { '201': { description: 'The new report, queued.', content: { 'application/json': { schema: reportResponse } } } },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/reports`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listReports',
      summary: "List the team's reports with status and share state",
      description: `Newest first, ${REPORTS_PER_PAGE} per page; photos and manifest omitted (GET /reports/{report} has them). Needs \`reports:read\`.`,
      tags: ['Reports'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listReportsQuery },
      responses: { '200': { description: 'One page of reports.', content: { 'application/json': { schema: reportListResponse } } } },
    },
  }),
  show: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/reports/:report`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getReport',
      summary: 'One report, its photos in order, download URL once rendered',
      description: 'Another team\'s report, an unknown id or one that is not digits: 404. Needs `reports:read`.',
      tags: ['Reports'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: reportPath },
      responses: { '200': { description: 'The report.', content: { 'application/json': { schema: reportResponse } } } },
    },
  }),
  share: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/reports/:report/share`,
    errors: [401, 403, 404, 409],
    operation: {
      operationId: 'shareReport',
      summary: 'Make (or replace) the share link of a rendered report',
      description: `Additive. A report that is not ready: 409. Answers the report (share state \`link\`) and \`share_url\`, shown only here; calling it again replaces the link (the old one answers 404). ${OFFICE_ONLY}`,
      tags: ['Reports'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: reportPath },
      responses: { '200': { description: 'The report and its new link.', content: { 'application/json': { schema: reportShareResponse } } } },
    },
  }),
  unshare: defineApiRoute({
    method: 'delete',
    path: `${REST_BASE}/reports/:report/share`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'unshareReport',
      summary: 'Revoke the share link',
      description: `Additive. The link answers 404 from now on; the report is \`private\` (already private: unchanged, 200). ${OFFICE_ONLY}`,
      tags: ['Reports'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: reportPath },
      responses: { '200': { description: 'The report, private.', content: { 'application/json': { schema: reportResponse } } } },
    },
  }),
  pdf: defineApiRoute({
    method: 'get',
    path: REPORT_PDF_ROUTE_PATH,
    errors: [403, 404],
    operation: {
      operationId: 'getReportPdf',
      summary: 'The rendered PDF (signed download_url)',
      description: 'Only through the signed `download_url` (no token needed): a missing, altered or expired signature is 403; an unknown report or one not rendered is 404. `Repr-Digest` carries the PDF\'s SHA-256.',
      tags: ['Reports'],
      security: [],
      requestParams: {
        path: reportPath,
        query: z.object({ expires: z.string().meta({ description: 'Unix seconds, as signed.' }), signature: z.string().meta({ description: 'base64url HMAC-SHA256, as signed.' }) }),
      },
      responses: { '200': { description: 'The PDF.', content: pdfContent } },
    },
  }),
  shared: defineApiRoute({
    method: 'get',
    path: SHARED_REPORT_ROUTE_PATH,
    errors: [404],
    operation: {
      operationId: 'getSharedReport',
      summary: 'The PDF behind a share link (no token)',
      description: 'Additive. The link\'s token is the credential: an unknown, replaced or revoked link is 404. `Repr-Digest` carries the PDF\'s SHA-256.',
      tags: ['Reports'],
      security: [],
      requestParams: { path: z.object({ token: z.string().meta({ description: 'The share token (rps_…).' }) }) },
      responses: { '200': { description: 'The PDF.', content: pdfContent } },
    },
  }),
};
