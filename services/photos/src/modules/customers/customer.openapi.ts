// The customer routes as OpenAPI operations; customer.routes.ts mounts its handlers on these.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { CUSTOMERS_PER_PAGE, createCustomerBody, listCustomersQuery } from './customer.validation.js';

const address = z
  .object({ street: z.string().nullable(), city: z.string().nullable(), postcode: z.string().nullable(), country: z.string().nullable() })
  .meta({ id: 'PhotosCustomerAddress' });

export const customerContactResource = z
  .object({ id: z.number().int(), name: z.string(), role: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() })
  .meta({ id: 'PhotosCustomerContact' });

/** A customer as lists answer it: everything but the contacts. */
export const customerSummary = z
  .object({
    id: z.number().int(),
    name: z.string(),
    company: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable().meta({ description: 'As written; search matches its digits.' }),
    address,
    notes: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosCustomerSummary' });

export const customerResource = customerSummary
  .extend({ contacts: z.array(customerContactResource).meta({ description: 'Additional contacts, in the order given.' }) })
  .meta({ id: 'PhotosCustomer' });

const customerPageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosCustomerPageMeta' });

export const customerResponse = z.object({ data: customerResource });
export const customerListResponse = z.object({ data: z.array(customerSummary), meta: customerPageMeta });

const customerIdParam = z.object({ customer: z.string().meta({ description: 'The customer id (digits; anything else is 404).' }) });

export const customerApi = {
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/customers`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listCustomers',
      summary: "List or search the team's customers",
      description: `${CUSTOMERS_PER_PAGE} per page, without contacts (read one customer for them). Without \`q\`: by name. Needs \`customers:read\`.`,
      tags: ['Customers'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listCustomersQuery },
      responses: { '200': { description: 'One page of customers.', content: { 'application/json': { schema: customerListResponse } } } },
    },
  }),
  create: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/customers`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createCustomer',
      summary: 'Create a customer with its contacts',
      description: 'Validates e-mail addresses and phone numbers (the customer\'s and each contact\'s): 422 naming every offending field, nothing stored. Announces `customer.created`. Needs `customers:write`.',
      tags: ['Customers'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createCustomerBody } } },
      responses: {
        '201': {
          description: 'The new customer.',
          content: { 'application/json': { schema: customerResponse } },
          headers: z.object({ Location: z.string().meta({ description: 'Path of the customer: /api/v1/customers/{id}.' }) }),
        },
      },
    },
  }),
  get: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/customers/:customer`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getCustomer',
      summary: 'One customer with its additional contacts',
      description: "A customer of the token's team; another team's or an unknown id is 404. Needs `customers:read`.",
      tags: ['Customers'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: customerIdParam },
      responses: { '200': { description: 'The customer.', content: { 'application/json': { schema: customerResponse } } } },
    },
  }),
};
