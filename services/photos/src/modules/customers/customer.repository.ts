import { EntityRepository } from '@mikro-orm/postgresql';
import type { Customer } from './customer.entity.js';
import { escapeLike, type CustomerSearchPlan } from './customer-search.js';

// Repeated from customer.entity.ts (CUSTOMER_SEARCH_DOCUMENT) with the table alias; the index's expression is matched
// by the planner whether or not the columns are qualified.
const DOCUMENT = `photos_search.customer_document(c."name", c."company", c."email", c."phone", c."city")`;
const PATTERN_CONDITION = `${DOCUMENT} like '%' || photos_search.normalize(?) || '%'`;

export interface CustomerListQuery {
  teamId: number;
  /** null: every customer of the team, by name. */
  plan: CustomerSearchPlan | null;
  page: number;
  perPage: number;
}

type CustomerRow = Record<string, unknown> & { search_total: string };

export class CustomerRepository extends EntityRepository<Customer> {
  /**
   * One page of the team's customers and how many there are in all, in one statement (a window count). With a search
   * plan: every pattern must occur in the search document (each condition can use the GIN trigram index), best
   * word_similarity to the query first, then by name; without one, by name.
   */
  async list(query: CustomerListQuery): Promise<{ items: Customer[]; total: number }> {
    const { sql, params } = listSql(query);
    const rows = await this.em.getConnection().execute<CustomerRow[]>(sql, params, 'all', this.em.getTransactionContext());
    const items = rows.map(({ search_total: _total, ...row }) => this.em.map(this.entityName, row) as Customer);
    if (rows.length > 0) return { items, total: Number(rows[0]!.search_total) };
    // A page beyond the last has no row to carry the count.
    return { items, total: query.page === 1 ? 0 : await this.countMatching(query) };
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
    params: [query.teamId, ...patterns.map(escapeLike)],
  };
}

function listSql(query: CustomerListQuery): { sql: string; params: unknown[] } {
  const { where, params } = conditions(query);
  const rank = query.plan ? `word_similarity(photos_search.normalize(?), ${DOCUMENT}) desc, ` : '';
  return {
    sql: `select c.*, count(*) over () as search_total from "customers" c where ${where} order by ${rank}c."name", c."id" limit ? offset ?`,
    params: [...params, ...(query.plan ? [query.plan.rankText] : []), query.perPage, (query.page - 1) * query.perPage],
  };
}
