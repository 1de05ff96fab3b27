import { ForbiddenError, NotFoundError, mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Response, Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { principalOf, requireRole, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { REST_BASE } from '../../api-paths.js';
import { TEAM_ROLES } from '../teams/index.js';
import { reportApi } from './report.openapi.js';
import { presentReport, presentReportPage, type ReportUrls } from './report.presenter.js';
import type { ReportPdf, ReportService } from './report.service.js';
import { listReportsQuery } from './report.validation.js';

export const INVALID_REPORT_LINK_MESSAGE = 'This report link is invalid or has expired.';

/**
 * /api/v1/reports: reads need reports:read; create, share and unshare need an office session (any role: the spec names
 * no reports:write ability, so tokens with abilities cannot write). The signed download and the share link need no token.
 */
export function reportRoutes(auth: AuthService, reports: ReportService, urls: ReportUrls): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  const office = requireRole(...TEAM_ROLES);
  mountApiRoute(router, reportApi.create, token, office, async (req, res) => {
    const report = await reports.create(principalOf(res), req.body);
    res.status(201).location(`${REST_BASE}/reports/${report.id}`).json({ data: presentReport(report, urls) });
  });
  mountApiRoute(router, reportApi.list, token, requireScope('reports:read'), async (req, res) => {
    const query = parseInput(listReportsQuery, req.query);
    res.json(presentReportPage(await reports.list(principalOf(res), { projectId: query.project, status: query.status, page: query.page }), urls));
  });
  mountApiRoute(router, reportApi.show, token, requireScope('reports:read'), async (req, res) => {
    res.json({ data: presentReport(await reports.get(principalOf(res), String(req.params.report)), urls) });
  });
  mountApiRoute(router, reportApi.share, token, office, async (req, res) => {
    const { report, token: shareToken } = await reports.share(principalOf(res), String(req.params.report));
    res.json({ data: presentReport(report, urls), share_url: urls.reports.shareUrl(shareToken) });
  });
  mountApiRoute(router, reportApi.unshare, token, office, async (req, res) => {
    res.json({ data: presentReport(await reports.unshare(principalOf(res), String(req.params.report)), urls) });
  });
  mountApiRoute(router, reportApi.pdf, async (req, res) => {
    const report = await reports.findForDownload(String(req.params.report));
    const expires = typeof req.query.expires === 'string' && /^\d{1,12}$/.test(req.query.expires) ? Number(req.query.expires) : null;
    const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
    // Without a rendered PDF there is nothing a signature could have been made for.
    if (!report?.pdfSha256) throw new NotFoundError(`report ${String(req.params.report).slice(0, 20)}`);
    if (expires === null || !urls.reports.valid(report.id, report.pdfSha256, expires, signature)) throw new ForbiddenError(INVALID_REPORT_LINK_MESSAGE);
    await sendPdf(res, await reports.openPdf(report), 'private, max-age=3600');
  });
  mountApiRoute(router, reportApi.shared, async (req, res) => {
    // The link can be revoked at any moment: never cached.
    await sendPdf(res, await reports.openShared(String(req.params.token)), 'no-store');
  });
  return router;
}

/** Streams the PDF with its SHA-256 as Repr-Digest (RFC 9530), so a recipient can check what arrived. */
async function sendPdf(res: Response, pdf: ReportPdf | null, cacheControl: string): Promise<void> {
  if (!pdf) throw new NotFoundError('report PDF');
  res.status(200);
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(pdf.sizeBytes));
  res.setHeader('Content-Disposition', `inline; filename="${pdf.filename}"`);
  res.setHeader('Repr-Digest', `sha-256=:${Buffer.from(pdf.sha256, 'hex').toString('base64')}:`);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  try {
    await pipeline(pdf.body, res);
  } catch {
    // The client went away mid-transfer: nothing more to answer.
    res.destroy();
  }
}
