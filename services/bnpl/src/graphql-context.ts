import type { Request } from 'express';
import type { ApiKeyService } from './modules/api-keys/api-key.service.js';
import type { BnplPrincipal, MerchantAuthService } from './modules/dashboard-auth/dashboard-auth.service.js';
import type { MerchantService } from './modules/merchants/merchant.service.js';

export interface BnplServices {
  auth: MerchantAuthService;
  merchants: MerchantService;
  apiKeys: ApiKeyService;
}

export interface BnplContext extends BnplServices {
  /** Authenticates on first use (memoized); rejects with the one authentication error. */
  principal: () => Promise<BnplPrincipal>;
}

export function createContext(services: BnplServices, req: Request): BnplContext {
  let principal: Promise<BnplPrincipal> | undefined;
  const publicKey = req.get('x-merchant-public-key');
  return {
    ...services,
    principal: () => (principal ??= services.auth.authenticateEither(req.headers.authorization, publicKey)),
  };
}
