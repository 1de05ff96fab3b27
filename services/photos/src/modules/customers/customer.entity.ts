import { defineEntity, p } from '@mikro-orm/core';
import { Team } from '../teams/index.js';
import { CustomerRepository } from './customer.repository.js';

/**
 * The customer's search document, a stored generated column (the migration's function photos_search.customer_document):
 * name, company, e-mail, phone and city lowercased and unaccented, then the phone's digits. Written as PostgreSQL
 * reports it back, so the schema comparison sees no change.
 */
const SEARCH_DOCUMENT_EXPRESSION = '(photos_search.customer_document((name)::text, (company)::text, (email)::text, (phone)::text, (city)::text)) stored';
export const CUSTOMER_SEARCH_INDEX = 'customers_search_document_trgm_index';

/** A customer of a team (the spec names only its search fields; the rest is decided in the README). */
export const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  repository: () => CustomerRepository,
  indexes: [
    { properties: ['team', 'name'] },
    { name: CUSTOMER_SEARCH_INDEX, expression: `create index "${CUSTOMER_SEARCH_INDEX}" on "customers" using gin ("search_document" gin_trgm_ops)` },
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
    /** Read by the search only (customer.repository.ts); never loaded with the entity. */
    searchDocument: p.text().generated(SEARCH_DOCUMENT_EXPRESSION).nullable().lazy().hidden(),
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
