import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, parseInput, transactionWithAfterCommit } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { customerSearchPlan } from './customer-search.js';
import type { CustomerEventSink } from './customer-events.js';
import { Customer, CustomerContact } from './customer.entity.js';
import { presentCustomer } from './customer.presenter.js';
import { CUSTOMERS_PER_PAGE, createCustomerBody, newCustomerFrom, type CustomerInput, type CustomerListQuery } from './customer.validation.js';

export interface CustomerPage {
  items: Customer[];
  total: number;
  page: number;
  perPage: number;
}

export interface CustomerServiceOptions {
  /** Where customer.created goes (the team's webhooks); none: nothing is announced. */
  events?: CustomerEventSink | undefined;
}

const ID = /^\d{1,10}$/;

/** Customers of the caller's team, for REST and GraphQL alike; callers have checked the scope (customers:read/write). */
export class CustomerService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: CustomerServiceOptions = {},
  ) {}

  /** One page of the team's customers; with `q`, the search (customer-search.ts), best match first. */
  async list(principal: PhotosPrincipal, query: CustomerListQuery): Promise<CustomerPage> {
    const page = query.page ?? 1;
    const { items, total } = await this.em.getRepository(Customer).list({
      teamId: principal.teamId,
      plan: customerSearchPlan(query.q),
      page,
      perPage: CUSTOMERS_PER_PAGE,
    });
    return { items, total, page, perPage: CUSTOMERS_PER_PAGE };
  }

  /** One customer of the team with its contacts; another team's, an unknown or a malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string): Promise<Customer> {
    const customer = await this.findVisible(principal, id);
    if (!customer) throw new NotFoundError(`customer ${id.slice(0, 40)}`);
    return customer;
  }

  /** Entity resolution: a customer is visible only inside its own team (contacts loaded). */
  async findVisible(principal: PhotosPrincipal, id: string): Promise<Customer | null> {
    if (!ID.test(id)) return null;
    return this.em.getRepository(Customer).findOne({ id: Number(id), team: principal.teamId }, { populate: ['contacts'] });
  }

  /** A customer of the team by number (a project's link); null when the team has none with this id. */
  findInTeam(teamId: number, id: number): Promise<Customer | null> {
    return this.em.getRepository(Customer).findOne({ id, team: teamId });
  }

  /** Creates a customer with its contacts (checked: every problem in one 422, nothing stored); announces customer.created. */
  async create(principal: PhotosPrincipal, input: CustomerInput): Promise<Customer> {
    const draft = newCustomerFrom(parseInput(createCustomerBody, input, { rootField: 'body' }));
    return transactionWithAfterCommit<Customer>(this.em, async (tx) => {
      const { contacts, ...fields } = draft;
      const customer = tx.create(Customer, { team: principal.teamId, ...fields });
      contacts.forEach((contact, position) => customer.contacts.add(tx.create(CustomerContact, { customer, position, ...contact })));
      await tx.flush();
      const announced = await this.options.events?.emit(tx, principal.teamId, 'customer.created', presentCustomer(customer));
      return { result: customer, afterCommit: announced };
    });
  }
}
