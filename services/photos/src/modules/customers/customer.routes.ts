import { mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { customerApi } from './customer.openapi.js';
import { customerPath, presentCustomer, presentCustomerPage } from './customer.presenter.js';
import type { CustomerService } from './customer.service.js';
import { createCustomerBody, listCustomersQuery } from './customer.validation.js';

/** /api/v1/customers… (customers:read / customers:write; office endpoints, not the capture app's). */
export function customerRoutes(auth: AuthService, customers: CustomerService): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, customerApi.list, token, requireScope('customers:read'), async (req, res) => {
    res.json(presentCustomerPage(await customers.list(principalOf(res), parseInput(listCustomersQuery, req.query))));
  });
  mountApiRoute(router, customerApi.create, token, requireScope('customers:write'), async (req, res) => {
    const customer = await customers.create(principalOf(res), parseInput(createCustomerBody, req.body, { rootField: 'body' }));
    res.status(201).location(customerPath(customer)).json({ data: presentCustomer(customer) });
  });
  mountApiRoute(router, customerApi.get, token, requireScope('customers:read'), async (req, res) => {
    res.json({ data: presentCustomer(await customers.get(principalOf(res), String(req.params.customer))) });
  });
  return router;
}
