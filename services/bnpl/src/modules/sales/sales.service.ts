import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, isUuid } from '@tributary/kit';
import { dashboardMerchantId, type BnplPrincipal } from '../merchant-auth/index.js';
import { Loan } from '../loans/index.js';
import { encodeSalesCursor } from './sales-cursor.js';
import type { SaleView } from './sales.presenter.js';
import { salesExportBatchReader, salesExportBatches, salesPageRows, salesPageViews, type SaleExportRow } from './sales.queries.js';
import { validateSalesFilters, validateSalesList, type SalesFilterInput, type SalesListInput } from './sales.validation.js';

/** One page of sales, newest first, and the cursor of the next page (null on the last one). */
export interface SalesPage {
  loans: Loan[];
  nextCursor: string | null;
}

/** The same page as plain views, for an answer that only presents them (REST). */
export interface SaleViewPage {
  sales: SaleView[];
  nextCursor: string | null;
}

/** Reading sales (spec: the dashboard token reads sales): the one path for REST and GraphQL; a merchant sees only its own. */
export class SalesService {
  constructor(private readonly em: EntityManager) {}

  /** A page of the merchant's sales matching the filters, with installments (in number order); 422 on bad input. */
  async list(principal: BnplPrincipal, input: SalesListInput): Promise<SalesPage> {
    const merchantId = merchantOf(principal);
    const query = validateSalesList(input);
    const { page, nextCursor } = keysetPage(await salesPageRows(this.em, merchantId, query), query.limit);
    if (page.length === 0) return { loans: [], nextCursor };
    const loans = await this.em.find(Loan, { id: { $in: page.map((row) => row.id) } }, { populate: ['installments'] });
    const byId = new Map<string, Loan>(loans.map((loan) => [loan.id, loan]));
    return { loans: page.flatMap((row) => byId.get(row.id) ?? []), nextCursor };
  }

  /**
   * The same page as list, read in one statement as plain views without installments, for an answer that only
   * presents the summary (the REST list): hydrating loans and their installments was most of its CPU.
   */
  async listViews(principal: BnplPrincipal, input: SalesListInput): Promise<SaleViewPage> {
    const merchantId = merchantOf(principal);
    const query = validateSalesList(input);
    const { page, nextCursor } = keysetPage(await salesPageViews(this.em, merchantId, query), query.limit);
    return { sales: page, nextCursor };
  }

  /** One sale of the merchant with its installments; another merchant's, unknown or malformed id → 404. */
  async get(principal: BnplPrincipal, loanId: string): Promise<Loan> {
    const merchantId = merchantOf(principal);
    const loan = isUuid(loanId) ? await this.em.findOne(Loan, { id: loanId.toLowerCase(), merchant: merchantId }, { populate: ['installments'] }) : null;
    if (!loan) throw new NotFoundError(`sale ${loanId.slice(0, 64)}`);
    return loan;
  }

  /**
   * Every sale matching the filters, newest first, as batches of rows read one short statement at a time (see
   * salesExportBatches). The filters are checked before anything is read (422); the first batch is read here, so a
   * failing query is still an ordinary error answer rather than a cut-off download.
   */
  async export(principal: BnplPrincipal, input: SalesFilterInput): Promise<AsyncIterable<SaleExportRow[]>> {
    const merchantId = merchantOf(principal);
    const filters = validateSalesFilters(input);
    const read = salesExportBatchReader(this.em, merchantId, filters);
    return salesExportBatches(read, await read());
  }
}

/** The first `limit` of a page read with one row more, and the next page's cursor when that row exists. */
function keysetPage<Row extends { id: string; position: string }>(rows: Row[], limit: number): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeSalesCursor({ createdAt: last.position, loanId: last.id }) : null };
}

function merchantOf(principal: BnplPrincipal): string {
  return dashboardMerchantId(principal, 'Sales');
}
