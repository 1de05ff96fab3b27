import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Request, Response, Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { SALES_CSV_CONTENT_TYPE, SALES_CSV_FILENAME, salesCsvChunks } from './sales-csv.js';
import { ExportSlots, IdleDownloadError, pipeWithIdleTimeout, type ExportLimitConfig } from './sales-export-limits.js';
import { salesApi } from './sales.openapi.js';
import { presentSaleDetail, presentSalesPage } from './sales.presenter.js';
import type { SaleExportRow } from './sales.queries.js';
import type { SalesService } from './sales.service.js';
import { salesFilterInputFromQuery, salesListInputFromQuery } from './sales.validation.js';

/**
 * /api/v1/merchant/sales (DT); methods and paths come from sales.openapi.ts. export.csv is mounted before
 * /sales/:loan_id, so it is never read as a loan id.
 */
export function salesRoutes(auth: MerchantAuthService, sales: SalesService, options: { config: ExportLimitConfig }): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);
  const slots = new ExportSlots(options.config.BNPL_EXPORTS_PER_MERCHANT);
  const idleMs = options.config.BNPL_EXPORT_IDLE_TIMEOUT_SECONDS * 1000;

  mountApiRoute(router, salesApi.list, dashboardToken, async (req, res) => {
    res.json(presentSalesPage(await sales.listViews(dashboardPrincipalOf(res), salesListInputFromQuery(req.query))));
  });
  mountApiRoute(router, salesApi.export, dashboardToken, async (req, res) => {
    const principal = dashboardPrincipalOf(res);
    const release = slots.acquire(principal.merchantId);
    try {
      const batches = await sales.export(principal, salesFilterInputFromQuery(req.query));
      res.status(200);
      res.set({ 'Content-Type': SALES_CSV_CONTENT_TYPE, 'Content-Disposition': `attachment; filename="${SALES_CSV_FILENAME}"`, 'Cache-Control': 'no-store' });
      await sendCsv(req, res, batches, idleMs);
    } finally {
      release();
    }
  });
  mountApiRoute(router, salesApi.get, dashboardToken, async (req, res) => {
    res.json(presentSaleDetail(await sales.get(dashboardPrincipalOf(res), String(req.params.loan_id))));
  });
  return router;
}

/**
 * The CSV body, pulled batch by batch as the client takes it. Headers are gone by then: a failure can only cut the body.
 * Logged through `req.log`, so the line carries the download's request id.
 */
async function sendCsv(req: Request, res: Response, batches: AsyncIterable<SaleExportRow[]>, idleMs: number): Promise<void> {
  const logger = req.log;
  try {
    await pipeWithIdleTimeout(salesCsvChunks(batches), res, idleMs);
  } catch (error) {
    if (error instanceof IdleDownloadError) logger.info({ reason: error.message }, 'sales export cut off: the client stopped reading');
    else if (req.socket.destroyed && !res.writableFinished) logger.info({ err: error }, 'sales export ended early: the client went away');
    else logger.error({ err: error }, 'sales export failed after its headers were sent; the download is cut off');
  }
}
