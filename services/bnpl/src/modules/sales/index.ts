// Sales (spec "Endpoints": /api/v1/merchant/sales, its detail and CSV export; GraphQL BnplMerchant.sales): reading the
// loans checkout booked, filtered, paged by an opaque keyset cursor, and streamed as CSV. Read only: the loans module
// owns the loans.
export { SalesService, type SalesPage } from './sales.service.js';
export { salesRoutes } from './sales.routes.js';
export { salesResolvers } from './sales.resolvers.js';
export { salesApi } from './sales.openapi.js';
export { SALES_CSV_COLUMNS } from './sales-csv.js';
export { SALES_PAGE_DEFAULT, SALES_PAGE_MAX } from './sales.validation.js';
export { decodeSalesCursor, encodeSalesCursor, type SalesCursorPosition } from './sales-cursor.js';
export { salesExportSql } from './sales.queries.js';
export { exportLimitFields, type ExportLimitConfig } from './sales-export-limits.js';
