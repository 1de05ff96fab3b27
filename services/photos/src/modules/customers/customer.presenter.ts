// The customer as REST answers it (and as customer.created carries it), and its list (without contacts).
import type { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import type { Customer } from './customer.entity.js';
import type { customerListResponse, customerResource, customerSummary } from './customer.openapi.js';
import type { CustomerPage } from './customer.service.js';

export function presentCustomerSummary(customer: Customer): z.input<typeof customerSummary> {
  return {
    id: customer.id,
    name: customer.name,
    company: customer.company ?? null,
    email: customer.email ?? null,
    phone: customer.phone ?? null,
    address: { street: customer.street ?? null, city: customer.city ?? null, postcode: customer.postcode ?? null, country: customer.country ?? null },
    notes: customer.notes,
    created_at: customer.createdAt.toISOString(),
  };
}

/** The full resource: the summary and the contacts in their order (they must be loaded). */
export function presentCustomer(customer: Customer): z.input<typeof customerResource> {
  return {
    ...presentCustomerSummary(customer),
    contacts: customer.contacts.getItems().map((contact) => ({
      id: contact.id,
      name: contact.name,
      role: contact.role ?? null,
      email: contact.email ?? null,
      phone: contact.phone ?? null,
    })),
  };
}

export function presentCustomerPage(page: CustomerPage): z.input<typeof customerListResponse> {
  return {
    data: page.items.map(presentCustomerSummary),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}

export function customerPath(customer: Customer): string {
  return `${REST_BASE}/customers/${customer.id}`;
}
