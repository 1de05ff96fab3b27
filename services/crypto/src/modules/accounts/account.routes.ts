import { mountApiRoute } from '@tributary/kit';
import { Router } from 'express';
import type { z } from 'zod';
import { requireApiKey, principalOf } from '../../auth.js';
import { accountApi, type accountResponse } from './account.openapi.js';
import type { AccountService } from './account.service.js';

/** Merchant API routes of the account aggregate (prefix /api/merchant/v1); paths come from account.openapi.ts. */
export function accountRoutes(accounts: () => AccountService): Router {
  const router = Router();
  mountApiRoute(router, accountApi.get, requireApiKey(accounts), async (_req, res) => {
    const account = await accounts().getAccount(principalOf(res));
    const keys = await accounts().activeKeys(account);
    const body: z.input<typeof accountResponse> = {
      account: {
        id: account.id,
        name: account.name,
        status: account.status,
        created_at: account.createdAt.toISOString(),
        api_keys: keys.map((key) => ({ key_id: key.keyId, name: key.name, created_at: key.createdAt.toISOString(), last_used_at: key.lastUsedAt?.toISOString() ?? null })),
      },
    };
    res.json(body);
  });
  return router;
}
