import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { mountApiRoute, type Logger, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { dashboardPrincipalOf, requireDashboardToken, type MerchantAuthService } from '../merchant-auth/index.js';
import { SALES_CSV_CONTENT_TYPE, SALES_CSV_FILENAME, salesCsvChunks } from './sales-csv.js';
import { salesApi } from './sales.openapi.js';
import { presentSaleDetail, presentSalesPage } from './sales.presenter.js';
import type { SalesService } from './sales.service.js';
import { salesFilterInputFromQuery, salesListInputFromQuery } from './sales.validation.js';

/**
 * /api/v1/merchant/sales (DT); methods and paths come from sales.openapi.ts. export.csv is mounted before
 * /sales/:loan_id, so it is never read as a loan id.
 */
export function salesRoutes(auth: MerchantAuthService, sales: SalesService, logger: Logger): Router {
  const router = serviceRouter();
  const dashboardToken = requireDashboardToken(auth);

  mountApiRoute(router, salesApi.list, dashboardToken, async (req, res) => {
    res.json(presentSalesPage(await sales.listViews(dashboardPrincipalOf(res), salesListInputFromQuery(req.query))));
  });
  mountApiRoute(router, salesApi.export, dashboardToken, async (req, res) => {
    const rows = await sales.export(dashboardPrincipalOf(res), salesFilterInputFromQuery(req.query));
    res.status(200);
    res.set({ 'Content-Type': SALES_CSV_CONTENT_TYPE, 'Content-Disposition': `attachment; filename="${SALES_CSV_FILENAME}"`, 'Cache-Control': 'no-store' });
    // pipeline waits for the response to drain before pulling the next chunk (backpressure down to the database
    // cursor). Headers are gone by then: a failure can only cut the body. Whatever happened, the rows are returned,
    // which ends the cursor and gives its connection back to the pool.
    try {
      await pipeline(Readable.from(salesCsvChunks(rows)), res);
    } catch (error) {
      if (req.socket.destroyed && !res.writableFinished) logger.info({ err: error }, 'sales export ended early: the client went away');
      else logger.error({ err: error }, 'sales export failed after its headers were sent; the download is cut off');
    } finally {
      await rows.return?.();
    }
  });
  mountApiRoute(router, salesApi.get, dashboardToken, async (req, res) => {
    res.json(presentSaleDetail(await sales.get(dashboardPrincipalOf(res), String(req.params.loan_id))));
  });
  return router;
}
