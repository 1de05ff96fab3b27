import { parseInput } from '@tributary/kit';
import type { Resolvers } from '../../graphql/resolvers-types.js';
import { listCustomersQuery } from './customer.validation.js';

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosCustomer's parent is the Customer entity).
export const customerResolvers = {
  Query: {
    photosCustomers: async (_parent, args, ctx) => {
      const principal = await ctx.principalWith('customers:read');
      // Through the REST query's schema: the same checks and the same 422 field names.
      const query = parseInput(listCustomersQuery, { q: args.q ?? undefined, page: args.page == null ? undefined : String(args.page) });
      return ctx.customers.list(principal, query);
    },
    photosCustomer: async (_parent, args, ctx) => ctx.customers.findVisible(await ctx.principalWith('customers:read'), args.id),
  },
  Mutation: {
    createPhotosCustomer: async (_parent, { input }, ctx) => ctx.customers.create(await ctx.principalWith('customers:write'), input),
  },
  PhotosProject: {
    customer: async (project, _args, ctx) => {
      const principal = await ctx.principalWith('customers:read');
      return project.customer ? ctx.customers.findVisible(principal, String(project.customer.id)) : null;
    },
  },
  PhotosCustomer: {
    id: (customer) => String(customer.id),
    company: (customer) => customer.company ?? null,
    email: (customer) => customer.email ?? null,
    phone: (customer) => customer.phone ?? null,
    address: (customer) => ({ street: customer.street ?? null, city: customer.city ?? null, postcode: customer.postcode ?? null, country: customer.country ?? null }),
    createdAt: (customer) => customer.createdAt.toISOString(),
    contacts: async (customer) => customer.contacts.loadItems(),
  },
  PhotosCustomerContact: {
    id: (contact) => String(contact.id),
    role: (contact) => contact.role ?? null,
    email: (contact) => contact.email ?? null,
    phone: (contact) => contact.phone ?? null,
  },
} satisfies Resolvers;
