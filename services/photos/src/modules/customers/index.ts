// Customers of a team with additional contacts, searched by name, company, e-mail, phone and city (pg_trgm + unaccent).
import { CustomerContactSchema, CustomerSchema } from './customer.entity.js';

export { CUSTOMER_SEARCH_INDEX, Customer, CustomerContact, CustomerContactSchema, CustomerSchema } from './customer.entity.js';
export { CustomerService, type CustomerPage, type CustomerServiceOptions } from './customer.service.js';
export type { CustomerEvent, CustomerEventSink } from './customer-events.js';
export { customerSearchPlan, type CustomerSearchPlan } from './customer-search.js';
export { customerListSql } from './customer.repository.js';
export { CUSTOMERS_PER_PAGE, EMAIL_MESSAGE, PHONE_MESSAGE, isPhoneNumber } from './customer.validation.js';
export { presentCustomer, presentCustomerSummary } from './customer.presenter.js';
export { customerRoutes } from './customer.routes.js';
export { customerResolvers } from './customer.resolvers.js';
export { customerApi } from './customer.openapi.js';

export const customerEntities = [CustomerSchema, CustomerContactSchema];
