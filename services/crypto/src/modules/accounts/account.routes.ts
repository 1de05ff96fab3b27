import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireApiKey } from './api-key.guard.js';
import { accountApi } from './account.openapi.js';
import { presentAccount } from './account.presenter.js';
import type { AccountService } from './account.service.js';

/** Merchant API routes of the account aggregate; paths come from account.openapi.ts. */
export function accountRoutes(accounts: AccountService): Router {
  const router = serviceRouter();
  mountApiRoute(router, accountApi.get, requireApiKey(accounts), async (_req, res) => {
    const account = await accounts.getAccount(principalOf(res));
    res.json(presentAccount(account, await accounts.activeKeys(account)));
  });
  return router;
}
