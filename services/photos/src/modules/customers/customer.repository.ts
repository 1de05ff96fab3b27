import { EntityRepository } from '@mikro-orm/postgresql';
import type { Customer } from './customer.entity.js';
import type { CustomerSearchPlan } from './customer-search.js';

// The stored search document (customer.entity.ts), which the GIN trigram index covers; the query text is normalised by
// the same function as the document, and escaped after that (photos_search.contains_pattern), so no character of it is
// a wildcard, whatever it normalises to.
const DOCUMENT = `c."search_document"`;
const PATTERN_CONDITION = `${DOCUMENT} like photos_search.contains_pattern(?)`;
// Where the first word first occurs: the document starts with the name, so matches in the name come first.
const RANK = `strpos(${DOCUMENT}, photos_search.normalize(?))`;

export interface CustomerListQuery {
  teamId: number;
  /** null: every customer of the team, by name. */
  plan: CustomerSearchPlan | null;
  page: number;
  perPage: number;
}

type CustomerRow = Record<string, unknown> & { search_total: string };

/** Every column but the search document (the entity never loads it). */
const SELECTED = ['id', 'team_id', 'name', 'company', 'email', 'phone', 'street', 'city', 'postcode', 'country', 'notes', 'created_at'].map((column) => `c."${column}"`).join(', ');

export class CustomerRepository extends EntityRepository<Customer> {
  /**
   * One page of the team's customers and how many there are in all, in one statement (a window count). With a search
   * plan: every pattern must occur in the search document (each condition can use the GIN trigram index), the earliest
   * occurrence of the first pattern first (a match in the name before one in the company, e-mail, phone or city), then
   * by name; without one, by name.
   */
  async list(query: CustomerListQuery): Promise<{ items: Customer[]; total: number }> {
    const rows = query.plan ? await this.searchRows(query) : await this.run(customerListSql(query));
    const items = rows.map(({ search_total: _total, ...row }) => this.em.map(this.entityName, row) as Customer);
    if (rows.length > 0) return { items, total: Number(rows[0]!.search_total) };
    // A page beyond the last has no row to carry the count.
    return { items, total: query.page === 1 ? 0 : await this.countMatching(query) };
  }

  /**
   * The search statement with sequential scans off for this transaction only. A common word matches thousands of
   * customers, and the planner then prices a sequential scan below the trigram index, but running LIKE on every row
   * costs far more than it thinks: at 100 000 customers, 22 ms for the scan against 6 ms through the index for the
   * same 8 300 matches. Selective searches use the index either way.
   */
  private async searchRows(query: CustomerListQuery): Promise<CustomerRow[]> {
    const connection = this.em.getConnection();
    const { sql, params } = customerListSql(query);
    return connection.transactional(async (trx) => {
      await connection.execute('set local enable_seqscan = off', [], 'run', trx);
      return connection.execute<CustomerRow[]>(sql, params, 'all', trx);
    }, { ctx: this.em.getTransactionContext() });
  }

  private run({ sql, params }: { sql: string; params: unknown[] }): Promise<CustomerRow[]> {
    return this.em.getConnection().execute<CustomerRow[]>(sql, params, 'all', this.em.getTransactionContext());
  }

  private async countMatching(query: CustomerListQuery): Promise<number> {
    const { where, params } = conditions(query);
    const [row] = await this.em.getConnection().execute<Array<{ total: string }>>(`select count(*) as total from "customers" c where ${where}`, params);
    return Number(row?.total ?? 0);
  }
}

function conditions(query: CustomerListQuery): { where: string; params: unknown[] } {
  const patterns = query.plan?.patterns ?? [];
  return {
    where: [`c."team_id" = ?`, ...patterns.map(() => PATTERN_CONDITION)].join(' and '),
    params: [query.teamId, ...patterns],
  };
}

/** The list statement and its parameters (exported for the benchmark's floor, which runs the same statement). */
export function customerListSql(query: CustomerListQuery): { sql: string; params: unknown[] } {
  const { where, params } = conditions(query);
  const rank = query.plan ? `${RANK}, ` : '';
  return {
    sql: `select ${SELECTED}, count(*) over () as search_total from "customers" c where ${where} order by ${rank}c."name", c."id" limit ? offset ?`,
    params: [...params, ...(query.plan ? [query.plan.patterns[0]!] : []), query.perPage, (query.page - 1) * query.perPage],
  };
}
