import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { CustomerRepository } from './customer.repository.js';

/**
 * The SQL function behind customer search (the migration creates it): name, company, e-mail, phone and city lowercased
 * and unaccented, then the phone's digits. The GIN trigram index below is on exactly this expression, and the search
 * query repeats it (customer.repository.ts), so the planner uses the index.
 */
export const CUSTOMER_SEARCH_DOCUMENT = `photos_search.customer_document("name", "company", "email", "phone", "city")`;
export const CUSTOMER_SEARCH_INDEX = 'customers_search_document_trgm_index';

/** A customer of a team (the spec names only its search fields; the rest is decided in the README). */
export const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  repository: () => CustomerRepository,
  indexes: [
    { properties: ['team', 'name'] },
    { name: CUSTOMER_SEARCH_INDEX, expression: `create index "${CUSTOMER_SEARCH_INDEX}" on "customers" using gin (${CUSTOMER_SEARCH_DOCUMENT} gin_trgm_ops)` },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    name: p.string().length(191),
    company: p.string().length(191).nullable(),
    email: p.string().length(254).nullable(),
    phone: p.string().length(40).nullable(),
    street: p.string().length(500).nullable(),
    city: p.string().length(191).nullable(),
    postcode: p.string().length(20).nullable(),
    country: p.string().length(100).nullable(),
    notes: p.text().default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    contacts: () => p.oneToMany(CustomerContact).mappedBy('customer').orderBy({ position: 'asc' }),
  },
});

export class Customer extends CustomerSchema.class {}
CustomerSchema.setClass(Customer);

/** An additional contact person of a customer (site manager, accounts, …), in the order given. */
export const CustomerContactSchema = defineEntity({
  name: 'CustomerContact',
  tableName: 'customer_contacts',
  indexes: [{ properties: ['customer', 'position'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    customer: () => p.manyToOne(Customer).deleteRule('cascade'),
    position: p.integer(),
    name: p.string().length(191),
    role: p.string().length(100).nullable(),
    email: p.string().length(254).nullable(),
    phone: p.string().length(40).nullable(),
  },
});

export class CustomerContact extends CustomerContactSchema.class {}
CustomerContactSchema.setClass(CustomerContact);
